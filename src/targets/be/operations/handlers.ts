// Pieces every route handler of a resource shares: the session dependency, the primary
// key parameter, and the module-level helpers (`_READ_OPTIONS`, `_not_found`, `_load_x`)
// a handler asks its routes module to define. Handlers that need a helper set the same
// context key with the same value; the assembler unifies them into one definition.

import { ImportCollector } from "../../../codegen/index.js";
import type { ResourceView } from "../resource.js";
import type { ReadShape } from "./read-shape.js";
import { RouteParam } from "./types.js";

/** `session: SessionDep` from the resource's database. */
export function sessionParam(view: ResourceView): RouteParam {
  return new RouteParam({ name: "session", annotation: "SessionDep", imports: new ImportCollector().addFrom(view.sessionModule, "SessionDep") });
}

/** `pk: uuid.UUID` (or int, str). */
export function pkParam(view: ResourceView): RouteParam {
  return new RouteParam({ name: "pk", annotation: view.pkAnnotation, imports: copy(view.pkImports) });
}

/** Module-level context of the routes file: the router and its docstring. Every handler of the resource sets the same values. */
export function routesModuleContext(view: ResourceView): Record<string, unknown> {
  const actions = view.config.operations.some((entry) => entry.type === "action");
  const crud = view.config.operations.some((entry) => entry.type !== "action");
  const what = [crud ? `CRUD under \`\`${view.routePrefix}\`\`` : "", actions ? `the ${view.label} actions` : ""].filter(Boolean).join(" and ");
  return {
    doc: `Routes of ${view.labelPlural}: ${what}.`,
    prefix: view.routePrefix,
    tag: view.routePrefix.replace(/^\//, "").replace(/\//g, "-") || view.name,
  };
}

/** Context keys asking for `_not_found` and `_load_<name>` (which reads with the read shape's loaders). */
export function loaderContext(view: ResourceView, shape: ReadShape | undefined): Record<string, unknown> {
  return {
    not_found: notFoundContext(view),
    loader: {
      name: `_load_${view.name}`,
      variable: view.name,
      model: view.modelClass,
      pk: view.pk,
      pk_annotation: view.pkAnnotation,
      label: view.label,
      schema: shape?.read.name,
    },
    read_options: shape && shape.loaders.length > 0 ? shape.loaders : undefined,
  };
}

/** Imports `_load_<name>` needs in the routes module. */
export function loaderImports(view: ResourceView, shape: ReadShape | undefined): ImportCollector {
  const imports = new ImportCollector()
    .addFrom("fastapi", "HTTPException", "status")
    .addFrom("sqlalchemy", "select")
    .addFrom("sqlalchemy.ext.asyncio", "AsyncSession")
    .addFrom(view.modelModule, view.modelClass)
    .update(view.pkImports);
  if (shape && shape.loaders.length > 0) imports.update(shape.loaderImports);
  return imports;
}

/** Context of `_not_found`: string keys are quoted in the message (`slug 'intro'`). */
export function notFoundContext(view: ResourceView): Record<string, unknown> {
  return { label: capitalize(view.label), pk: view.pk, pk_annotation: view.pkAnnotation, repr: view.config.pk_type === "str" };
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function copy(imports: ImportCollector): ImportCollector {
  return new ImportCollector().update(imports);
}
