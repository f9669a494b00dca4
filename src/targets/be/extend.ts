// The `be` target's API for packages that add operations to `be.operations`
// (`import … from "codegen-kit/be"`): the typed handles they find in the store and amend, and
// the helpers modifiers use to reach them. Everything else in the target is internal.

export { type ListCondition, type ListOrder, ListQuery, type FilterField, type OrderField } from "./operations/list/query.js";
export { ListHandler } from "./operations/list/list-handler.js";
export { listHandler, modifiedApp, modifiedResource, modifiesList, onlyOnePerList } from "./operations/modifier/context.js";
export { RouteHandler, RouteParam } from "./modules/handler.js";
export { ResourceFiles, resourceFiles } from "./modules/files.js";
export { docstringText, pythonString } from "./python/literals.js";
export type { ProjectConfig, ResourceConfig } from "./config/schema.js";
