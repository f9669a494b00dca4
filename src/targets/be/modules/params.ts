// Parameters every handler of a resource may take: the database session, the key, the request.

import { ImportCollector } from "../../../codegen/index.js";
import { pathKeyAnnotation } from "../python/annotations.js";
import type { ResourceView } from "../resource.js";
import { RouteParam } from "./handler.js";

/** `session: SessionDep`, from the session module of the resource's database. */
export function sessionParam(view: ResourceView): RouteParam {
  return new RouteParam({ name: "session", annotation: "SessionDep", imports: new ImportCollector().addFrom(view.sessionModule, "SessionDep") });
}

/**
 * Starlette path converters of the key types: a path matches a key route only if its segment
 * can be a key. `int_key` is registered by `runtime/values.py`, which an int key's annotation
 * (`column_rules`) imports; unlike Starlette's `int`, it leaves a segment of more digits than
 * Python reads (4,300) to the key's validation, a 422, instead of failing while routing.
 */
const KEY_CONVERTERS = { uuid: "uuid", int: "int_key", str: "path" } as const;

/**
 * `pk: uuid.UUID`, or an int or text key checked against its column: the `{pk}` path
 * parameter. The route matches only segments of the key's shape (`/articles/count-words`
 * is no article's URL, so an unsupported method there is a 405, not a 422); a text key
 * matches the rest of the path, so a key holding `/` (sent as `%2F`) still resolves.
 */
export function pkParam(view: ResourceView): RouteParam {
  const imports = new ImportCollector();
  const annotation = pathKeyAnnotation(view.config.pk_type, `${view.model.local}.${view.pk}`, view.runtimePackage, imports);
  if (view.config.pk_type !== "uuid") imports.addFrom(view.model.module, view.model.importName);
  return new RouteParam({ name: "pk", annotation, imports, converter: KEY_CONVERTERS[view.config.pk_type] });
}

/** `request: Request`: an idempotent route reads its `Idempotency-Key` from it, a create its URL. */
export function requestParam(): RouteParam {
  return new RouteParam({ name: "request", annotation: "Request", imports: new ImportCollector().addFrom("fastapi", "Request") });
}
