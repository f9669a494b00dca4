// Parameters every handler of a resource may take: the database session and the key.

import { ImportCollector } from "../../../codegen/index.js";
import { requestAnnotation } from "../python/annotations.js";
import type { ResourceView } from "../resource.js";
import { RouteParam } from "./handler.js";

/** `session: SessionDep`, from the session module of the resource's database. */
export function sessionParam(view: ResourceView): RouteParam {
  return new RouteParam({ name: "session", annotation: "SessionDep", imports: new ImportCollector().addFrom(view.sessionModule, "SessionDep") });
}

/**
 * `pk: uuid.UUID`, or an int or text key checked against its column (a key no row can have
 * is a 422, not a database error): the `{pk}` path parameter. A text key matches the rest
 * of the path, so a key holding `/` (sent as `%2F`) still resolves.
 */
export function pkParam(view: ResourceView): RouteParam {
  const imports = new ImportCollector();
  const annotation = requestAnnotation(view.config.pk_type, `${view.model.local}.${view.pk}`, view.runtimePackage, imports);
  if (view.config.pk_type !== "uuid") imports.addFrom(view.model.module, view.model.importName);
  return new RouteParam({ name: "pk", annotation, imports, converter: view.config.pk_type === "str" ? "path" : undefined });
}
