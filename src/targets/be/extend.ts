// The `be` target's API for packages that add operations to `be.operations`
// (`import … from "codegen-kit/be"`): the typed handles they find in the store and amend,
// the helpers modifiers use to reach them, and what an endpoint operation needs to build
// its handler (role `ENDPOINT`). Everything else in the target is internal.

export { type ListCondition, type ListOrder, ListQuery, type FilterField, type OrderField } from "./operations/list/query.js";
export { ListHandler } from "./operations/list/list-handler.js";
export { listHandler, modifiedApp, modifiedResource, modifiesList, onlyOnePerList } from "./operations/modifier/context.js";
export { ENDPOINT, type HandlerBody, RouteHandler, type RouteKind, RouteParam, type RouteTarget } from "./modules/handler.js";
export { type EndpointOperation, type HookKey, type Route } from "./modules/endpoint.js";
export { HookCalls } from "./modules/hooks.js";
export { PostHookPath, PreHookPath } from "./config/hooks.js";
export { sessionParam } from "./modules/params.js";
export { operationId } from "./resource.js";
export { ResourceFiles, resourceFiles } from "./modules/files.js";
export { docstringText, pythonString } from "./python/literals.js";
export type { ProjectConfig, ResourceConfig } from "./config/schema.js";
