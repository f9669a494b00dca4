// Every `be` operation class, from one module: the package.json's "be.operations" entries all
// name this file, so loading the registry imports one bundled module rather than one per operation.

export { Scaffold } from "./scaffold/scaffold.js";
export { AuthScaffold } from "./auth/scaffold.js";
export { OpaScaffold } from "./opa/opa.js";
export { RowVisibilityOperation } from "./visibility/visibility.js";
export { DiscoveryOperation } from "./discovery/discovery.js";
export { IndexesOperation } from "./indexes/indexes.js";
export { DatabaseOperation } from "./database/database.js";
export { ResourceFilesOperation } from "./resource/resource-files.js";
export { Entry } from "./entry/entry.js";
export { Get } from "./get/get.js";
export { List } from "./list/list.js";
export { Modifier } from "./modifier/modifier.js";
export { Filter } from "./filter/filter.js";
export { Order } from "./order/order.js";
export { Paginate } from "./paginate/paginate.js";
export { Create } from "./create/create.js";
export { Update } from "./update/update.js";
export { Delete } from "./delete/delete.js";
export { Action } from "./action/action.js";
export { Permissions } from "./permissions/permissions.js";
export { Values } from "./values/values.js";
export { Auth } from "./auth/augment.js";
export { Hooks } from "./hooks/hooks.js";
export { Authz } from "./authz/authz.js";
export { RateLimits, RateLimit, ProjectRateLimit } from "./rate_limit/rate-limit.js";
export { TelemetryScaffold, Trace } from "./telemetry/telemetry.js";
export { CommsScaffold } from "./comms/comms.js";
export { Cors } from "./cors/cors.js";
export { References } from "./references/references.js";
export { Router, ProjectRouter } from "./routing/routing.js";
export { TestSuite, TestModuleOperation, Tests } from "./tests/tests.js";
export { FileUpload, FileComplete, FileDownload, FileDelete } from "./files/files.js";
export { ViewList, ViewCreate, ViewGet, ViewUpdate, ViewDelete } from "./views/views.js";
