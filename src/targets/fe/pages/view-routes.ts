// A resource's saved views (the `be` target's `resource.saved_views()`, docs/be.md#saved-views):
// a signed-in user's named queries and columns of its list. Found by their paths and shapes, as
// every route of the pages is: `GET {prefix}/views` answering a list of `{id, name, query,
// columns}`, `POST {prefix}/views` taking `{name, query, columns}`, and
// `DELETE {prefix}/views/{view_id}`. They are neither a resource nor an action of the pages.

import type { ApiOperation } from "./openapi.js";

export interface ApiViewRoutes {
  /** `GET {prefix}/views`: the reader's views, by name. */
  list: ApiOperation;
  /** `POST {prefix}/views`: saves one. */
  create: ApiOperation;
  /** The component `create` takes (`ArticleViewCreate`). */
  createBody: string;
  /** `DELETE {prefix}/views/{view_id}`. */
  remove: ApiOperation;
}

/** The path the views of the collection `path` are at. */
export const viewsPath = (path: string) => `${path}/views`;

/** A component schema, by its name and its properties' names. */
interface Component {
  name: string;
  properties: string[];
}

const VIEW_FIELDS = ["name", "query", "columns"];
const has = (schema: Component | undefined, names: string[]) => names.every((name) => schema?.properties.includes(name) ?? false);

/**
 * The views routes of a collection, when they have their shapes: `list` answering a list of
 * `items`, `create` taking `body` and answering `answer`, and `remove`.
 */
export function viewRoutes(found: { list: ApiOperation; items?: Component; create: ApiOperation; body?: Component; answer?: Component; remove: ApiOperation }): ApiViewRoutes | undefined {
  const { list, items, create, body, answer, remove } = found;
  if (!has(items, ["id", ...VIEW_FIELDS]) || !has(body, VIEW_FIELDS) || !has(answer, ["id", ...VIEW_FIELDS])) return undefined;
  return { list, create, createBody: body!.name, remove };
}
