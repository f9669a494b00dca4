// Parameters every handler of a resource may take: the database session and the key.

import { ImportCollector } from "../../../codegen/index.js";
import type { ResourceView } from "../resource.js";
import { RouteParam } from "./handler.js";

/** `session: SessionDep`, from the session module of the resource's database. */
export function sessionParam(view: ResourceView): RouteParam {
  return new RouteParam({ name: "session", annotation: "SessionDep", imports: new ImportCollector().addFrom(view.sessionModule, "SessionDep") });
}

/** `pk: uuid.UUID` (or int, str): the `{pk}` path parameter. */
export function pkParam(view: ResourceView): RouteParam {
  return new RouteParam({ name: "pk", annotation: view.pkAnnotation, imports: new ImportCollector().update(view.pkImports) });
}
