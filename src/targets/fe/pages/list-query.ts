// What a list's query parameters say it can do: search (`q`), which fields `order_by` takes
// (its items' enum), and which fields it filters (`field`, `field__op`); and the discovery
// operations (`GET /_filters`, `POST /_values`) that describe those filters at run time.

import { isRecord } from "../../../codegen/index.js";

type Json = Record<string, unknown>;

/** Parameters every list has that are not filters. */
const LIST_PARAMETERS = new Set(["limit", "cursor", "offset", "total", "order_by", "q", "representation"]);

export interface ApiListQuery {
  /** The list takes `q`. */
  search: boolean;
  /** The fields `order_by` may name, in the document's order. */
  orderFields: string[];
  /** The filtered fields, each once, in the document's order (`rating` for `rating__gte`). */
  filterFields: string[];
}

/** Reads a list operation's query parameters. */
export function readListQuery(parameters: readonly Json[]): ApiListQuery {
  const query = parameters.filter((parameter) => parameter.in === "query" && typeof parameter.name === "string");
  const names = query.map((parameter) => parameter.name as string);
  const orderBy = query.find((parameter) => parameter.name === "order_by");
  const filterFields = [...new Set(names.filter((name) => !LIST_PARAMETERS.has(name)).map((name) => name.replace(/__[a-z_]+$/, "")))];
  return { search: names.includes("q"), orderFields: orderBy ? orderFields(orderBy.schema) : [], filterFields };
}

/** `["title", "-title", …]` (the items' enum of `order_by`, perhaps nullable) → `["title", …]`. */
function orderFields(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isRecord) : [schema];
  const array = variants.find((variant) => variant.type === "array");
  const items = array && isRecord(array.items) ? array.items : {};
  const values = Array.isArray(items.enum) ? items.enum.filter((value): value is string => typeof value === "string") : [];
  return values.filter((value) => !value.startsWith("-"));
}

/** The operation ids of the filter catalog and of its values, when the backend serves both. */
export interface ApiDiscovery {
  catalogOperationId: string;
  valuesOperationId: string;
  /** Either operation declares security: only a signed-in reader may ask. */
  secured: boolean;
}

export function readDiscovery(paths: Json): ApiDiscovery | undefined {
  const operation = (path: string, method: string) => {
    const item = paths[path];
    const op = isRecord(item) ? item[method] : undefined;
    return isRecord(op) && typeof op.operationId === "string" ? { id: op.operationId, secured: Array.isArray(op.security) && op.security.length > 0 } : undefined;
  };
  const catalog = operation("/_filters", "get");
  const values = operation("/_values", "post");
  if (!catalog || !values) return undefined;
  return { catalogOperationId: catalog.id, valuesOperationId: values.id, secured: catalog.secured || values.secured };
}
