// Reads the backend's OpenAPI document into the facts the pages need: resources (grouped by
// the `be` target's HTTP conventions: list and create at `{prefix}`, get, update and delete
// at `{prefix}/{pk}`, actions below), their schemas' fields with types and nullability,
// the operations' ids and security, and the password-flow token endpoint. Nothing here
// knows the `be` config: the document is the contract between the two ends.

import { isRecord } from "../../../codegen/index.js";
import { type ApiFileRoutes, fileRoutes } from "./file-routes.js";
import { type ApiDiscovery, type ApiListQuery, readDiscovery, readListQuery } from "./list-query.js";
import { type ApiViewRoutes, viewRoutes, viewsPath } from "./view-routes.js";

/** A field type the pages know how to show and edit. */
export type FieldKind = "uuid" | "str" | "email" | "int" | "float" | "bool" | "date" | "datetime" | "enum" | "json" | "nested";

export interface ApiField {
  name: string;
  kind: FieldKind;
  nullable: boolean;
  /** Listed in the schema's `required`. */
  required: boolean;
  /** A list of values: nested objects, or (with `references`) the keys of related rows a body sends. */
  many: boolean;
  /** The schema's `default`, when it has one. */
  default?: unknown;
  /** The members of an `enum` field: the schema's `enum` (strings, or numbers), in its order. */
  choices?: (string | number)[];
  /** The nested schema of a `nested` field. */
  nested?: ApiSchema;
  /** `x-references` of the property: the key of the resource this field points at. */
  references?: string;
}

export interface ApiSchema {
  /** The component's name (`ArticleRead`). */
  name: string;
  fields: ApiField[];
  /** `x-pk` of the schema: the key field. */
  pk?: string;
  /**
   * Its rows say which operations the user may call on them: an `actions` list of
   * `{name, scope}` (the `be` target's `include_actions_in_dump`), which is no field of `fields`.
   */
  actions?: boolean;
}

export interface ApiOperation {
  operationId: string;
  method: "get" | "post" | "patch" | "delete";
  path: string;
  /** The operation declares security, none of it optional: it needs a signed-in user. */
  secured: boolean;
  /** `x-groups`: only members of one of these groups may call it (the backend answers others 403). */
  groups?: string[];
  /** `x-name`: the name the permissions answers give it (`publish_article`). */
  name?: string;
  body?: ApiSchema;
  response?: ApiSchema;
  summary?: string;
}

export interface ApiList extends ApiOperation {
  /** How the next page is asked for: `cursor` (keyset pages, `next_cursor`) or `offset` (`next_offset`). */
  paging: "cursor" | "offset";
  maxLimit: number;
  defaultLimit: number;
  /** The list counts every row it selects when asked (`?total=true` → `total`). */
  total: boolean;
  query: ApiListQuery;
}

export interface ApiAction extends ApiOperation {
  slug: string;
  target: "instance" | "collection";
}

export interface ApiResource {
  /** The collection path: `/articles`. */
  path: string;
  /** Type of the `{pk}` path parameter. */
  pkKind: "uuid" | "int" | "str";
  read: ApiSchema;
  list?: ApiList;
  get?: ApiOperation;
  create?: ApiOperation;
  update?: ApiOperation;
  delete?: ApiOperation;
  actions: ApiAction[];
  /** Its bytes are in S3-compatible storage, uploaded and downloaded through these routes. */
  files?: ApiFileRoutes;
  /** `GET {prefix}/permissions` and `GET {prefix}/{pk}/permissions`: the operations the user may call. */
  permissions?: { collection?: ApiOperation; row?: ApiOperation };
  /** The signed-in user's saved views of its list (`{prefix}/views`). */
  views?: ApiViewRoutes;
}

export interface ApiModel {
  title: string;
  resources: ApiResource[];
  /** The OAuth2 password flow's token operation, when the backend has one. */
  tokenOperation?: ApiOperation;
  /** The session endpoint and logout, when the backend keeps the token in a cookie. */
  cookieSession?: ApiCookieSession;
  /** `GET /_filters` and `POST /_values`, when the backend describes its filters. */
  discovery?: ApiDiscovery;
}

/** A backend whose token may travel in a cookie (an `apiKey` scheme `in: cookie`), with its session endpoint and logout. */
export interface ApiCookieSession {
  /** `getCurrentSession`: who the cookie's token belongs to; its path. */
  sessionPath: string;
  /** `revokeAccessToken`: revokes the token and clears the cookie. */
  logoutOperationId: string;
  sessionOperationId: string;
}

/** The operation ids of the `be` target's session endpoint and logout (docs/auth.md). */
const SESSION_OPERATION_ID = "getCurrentSession";
const LOGOUT_OPERATION_ID = "revokeAccessToken";

/** A problem with the document, at a path inside it. */
export class DocumentProblem extends Error {
  readonly path: (string | number)[];
  constructor(path: (string | number)[], message: string) {
    super(message);
    this.path = path;
  }
}

type Json = Record<string, unknown>;


const PATH_PARAM = /^\{[^}]+\}$/;
/** Collection paths and action slugs the pages can route to and name files after; others are left out. */
const COLLECTION_PATH = /^(\/[a-z0-9][a-z0-9_-]*)+$/;
const SLUG = /^[a-z0-9][a-z0-9_-]*$/;

/** Reads the document; throws `DocumentProblem` for a part the pages cannot use. */
export function readOpenApi(document: Json): ApiModel {
  const reader = new Reader(document);
  return reader.model();
}

class Reader {
  private readonly schemas: Json;
  private readonly paths: Json;
  private readonly cache = new Map<string, ApiSchema>();
  /** The saved views of each collection path that has them. */
  private readonly views = new Map<string, ApiViewRoutes>();

  constructor(private readonly document: Json) {
    const components = isRecord(document.components) ? document.components : {};
    this.schemas = isRecord(components.schemas) ? components.schemas : {};
    if (!isRecord(document.paths)) throw new DocumentProblem(["paths"], "the OpenAPI document has no paths");
    this.paths = document.paths;
  }

  model(): ApiModel {
    const info = isRecord(this.document.info) ? this.document.info : {};
    const resources: ApiResource[] = [];
    // A collection's views routes have the shape of a resource, and of an action, of their own: they are its views.
    for (const path of Object.keys(this.paths)) {
      const views = COLLECTION_PATH.test(path) ? this.viewsOf(path) : undefined;
      if (views) this.views.set(path, views);
    }
    const viewPaths = new Set([...this.views.keys()].map(viewsPath));
    for (const path of Object.keys(this.paths)) {
      const resource = viewPaths.has(path) ? undefined : this.resourceAt(path);
      if (resource) resources.push(resource);
    }
    const cookieSession = this.cookieSession();
    return {
      title: typeof info.title === "string" ? info.title : "",
      resources,
      tokenOperation: this.tokenOperation(),
      ...(cookieSession && { cookieSession }),
      discovery: readDiscovery(this.paths),
    };
  }

  private operation(path: string, method: ApiOperation["method"]): Json | undefined {
    const item = this.paths[path];
    return isRecord(item) && isRecord(item[method]) ? item[method] : undefined;
  }

  /** The path of one item below `path` (`{path}/{pk}`), when the document has one. */
  private itemPathOf(path: string): string | undefined {
    return Object.keys(this.paths).find((candidate) => candidate.startsWith(`${path}/`) && PATH_PARAM.test(candidate.slice(path.length + 1)));
  }

  /** The resource whose collection is `path`: it has a list, or an item path with a get. */
  private resourceAt(path: string): ApiResource | undefined {
    if (!COLLECTION_PATH.test(path)) return undefined;
    const itemPath = this.itemPathOf(path);
    const listOp = this.operation(path, "get");
    // The session endpoint answers who is signed in, not a page of rows (and a list of groups the pages cannot show).
    if (listOp?.operationId === SESSION_OPERATION_ID) return undefined;
    const list = listOp ? this.listOf(path, listOp) : undefined;
    const getOp = itemPath ? this.operation(itemPath, "get") : undefined;
    if (!list && !getOp) return undefined;
    const get = getOp && itemPath ? this.describe(itemPath, "get", getOp) : undefined;
    const read = get?.response ?? list?.response;
    if (!read) return undefined;
    const at = (method: ApiOperation["method"], where: string | undefined) => {
      const op = where ? this.operation(where, method) : undefined;
      return op && where ? this.describe(where, method, op) : undefined;
    };
    const createOp = this.operation(path, "post");
    const views = this.views.get(path);
    const { files, actions } = fileRoutes(this.actionsOf(path, itemPath, views !== undefined));
    const permissions = this.permissionsOf(path, itemPath);
    return {
      path,
      pkKind: itemPath ? this.pkKind(itemPath) : "str",
      read,
      list,
      get,
      create: createOp && isRecord(createOp.responses) && "201" in createOp.responses ? this.describe(path, "post", createOp) : undefined,
      update: at("patch", itemPath),
      delete: at("delete", itemPath),
      actions,
      ...(files && { files }),
      ...(permissions && { permissions }),
      ...(views && { views }),
    };
  }

  /**
   * The saved views of the collection `path` (view-routes.ts). Their schemas hold what the pages
   * never show as fields (a view's query and its list of columns): only their names are read.
   */
  private viewsOf(path: string): ApiViewRoutes | undefined {
    const at = viewsPath(path);
    const itemPath = this.itemPathOf(at);
    const listOp = this.operation(at, "get");
    const createOp = this.operation(at, "post");
    const removeOp = itemPath ? this.operation(itemPath, "delete") : undefined;
    if (!listOp || !createOp || !removeOp || !itemPath) return undefined;
    const listed = this.mediaSchema(this.response(listOp, "200"));
    const items = listed?.type === "array" && isRecord(listed.items) ? this.component(listed.items) : undefined;
    const body = isRecord(createOp.requestBody) ? this.component(this.mediaSchema(createOp.requestBody)) : undefined;
    const answer = this.component(this.mediaSchema(this.response(createOp, "201")));
    return viewRoutes({
      list: this.describe(at, "get", listOp, false),
      items,
      create: this.describe(at, "post", createOp, false),
      body,
      answer,
      remove: this.describe(itemPath, "delete", removeOp, false),
    });
  }

  private response(op: Json, status: string): Json | undefined {
    const responses = isRecord(op.responses) ? op.responses : {};
    return isRecord(responses[status]) ? responses[status] : undefined;
  }

  /** The schema of a request body's or a response's first media type. */
  private mediaSchema(holder: Json | undefined): Json | undefined {
    const content = holder && isRecord(holder.content) ? holder.content : {};
    const media = Object.values(content).find(isRecord);
    return media && isRecord(media.schema) ? media.schema : undefined;
  }

  /** The name and property names of the component `schema` refers to, unread. */
  private component(schema: Json | undefined): { name: string; properties: string[] } | undefined {
    const ref = schema && typeof schema.$ref === "string" ? schema.$ref : undefined;
    if (!ref?.startsWith("#/components/schemas/")) return undefined;
    const name = ref.slice("#/components/schemas/".length);
    const raw = this.schemas[name];
    return isRecord(raw) && isRecord(raw.properties) ? { name, properties: Object.keys(raw.properties) } : undefined;
  }

  /** The permissions routes: a `GET {base}/permissions` answering a list of `{name, scope}`. */
  private permissionsOf(path: string, itemPath: string | undefined): ApiResource["permissions"] {
    const at = (base: string | undefined) => {
      const where = base && `${base}/permissions`;
      const op = where ? this.operation(where, "get") : undefined;
      return op && where && this.answersActionRefs(op) ? this.describe(where, "get", op) : undefined;
    };
    const collection = at(path);
    const row = at(itemPath);
    return collection || row ? { ...(collection && { collection }), ...(row && { row }) } : undefined;
  }

  private answersActionRefs(op: Json): boolean {
    const schema = this.mediaSchema(this.response(op, "200"));
    const items = schema?.type === "array" && isRecord(schema.items) ? schema.items : undefined;
    return typeof items?.$ref === "string" && isActionRef(this.schema(items.$ref, []));
  }

  private listOf(path: string, op: Json): ApiList | undefined {
    const page = this.responseSchema(op);
    if (!page) return undefined;
    const items = page.fields.find((field) => field.name === "items");
    const cursor = page.fields.some((field) => field.name === "next_cursor");
    const offset = page.fields.some((field) => field.name === "next_offset");
    if (!items?.nested || !items.many || !(cursor || offset)) return undefined;
    const parameters = Array.isArray(op.parameters) ? op.parameters.filter(isRecord) : [];
    const limit = parameters.find((parameter) => parameter.name === "limit" && parameter.in === "query");
    const limitSchema = limit && isRecord(limit.schema) ? limit.schema : {};
    return {
      ...this.describe(path, "get", op),
      response: items.nested,
      paging: cursor ? "cursor" : "offset",
      maxLimit: typeof limitSchema.maximum === "number" ? limitSchema.maximum : 100,
      defaultLimit: typeof limitSchema.default === "number" ? limitSchema.default : 50,
      total: page.fields.some((field) => field.name === "total") && parameters.some((parameter) => parameter.name === "total" && parameter.in === "query"),
      query: readListQuery(parameters),
    };
  }

  /** The actions below `path` and `itemPath`; with `views`, `{path}/views` is none. */
  private actionsOf(path: string, itemPath: string | undefined, views: boolean): ApiAction[] {
    const actions: ApiAction[] = [];
    const listOp = this.operation(path, "get");
    const page = listOp ? this.responseSchema(listOp) : undefined;
    for (const candidate of Object.keys(this.paths)) {
      const base = itemPath && candidate.startsWith(`${itemPath}/`) ? itemPath : candidate.startsWith(`${path}/`) ? path : undefined;
      if (base === undefined) continue;
      const slug = candidate.slice(base.length + 1);
      if (!SLUG.test(slug) || (views && candidate === viewsPath(path))) continue;
      const op = this.operation(candidate, "post");
      if (!op) continue;
      // A POST answering with the list's page is the list's search (`POST …/search`), not an action.
      if (base === path && page !== undefined && this.responseSchema(op) === page) continue;
      actions.push({ ...this.describe(candidate, "post", op), slug, target: base === path ? "collection" : "instance" });
    }
    return actions;
  }

  /** The operation; with `read` false, its body and response are left unread. */
  private describe(path: string, method: ApiOperation["method"], op: Json, read = true): ApiOperation {
    if (typeof op.operationId !== "string") {
      throw new DocumentProblem(["paths", path, method, "operationId"], "the operation has no operationId");
    }
    const body = read && isRecord(op.requestBody) ? this.contentSchema(op.requestBody, ["paths", path, method, "requestBody"]) : undefined;
    return {
      operationId: op.operationId,
      method,
      path,
      // An empty requirement (`{}`) among them: anonymous requests are served too.
      secured: Array.isArray(op.security) && op.security.length > 0 && !op.security.some((requirement) => isRecord(requirement) && Object.keys(requirement).length === 0),
      ...(Array.isArray(op["x-groups"]) && { groups: op["x-groups"].filter((group): group is string => typeof group === "string") }),
      ...(typeof op["x-name"] === "string" && { name: op["x-name"] }),
      body,
      response: read ? this.responseSchema(op) : undefined,
      summary: typeof op.summary === "string" ? op.summary : undefined,
    };
  }

  /** The success response's schema: one object per component (cached), so two answers of the same shape are `===`. */
  private responseSchema(op: Json): ApiSchema | undefined {
    const response = this.response(op, "200") ?? this.response(op, "201");
    return response && this.contentSchema(response, []);
  }

  private contentSchema(holder: Json, path: (string | number)[]): ApiSchema | undefined {
    const schema = this.mediaSchema(holder);
    const ref = schema && typeof schema.$ref === "string" ? schema.$ref : undefined;
    return ref ? this.schema(ref, path) : undefined;
  }

  private pkKind(itemPath: string): ApiResource["pkKind"] {
    const op = this.operation(itemPath, "get") ?? this.operation(itemPath, "patch") ?? this.operation(itemPath, "delete");
    const parameters = op && Array.isArray(op.parameters) ? op.parameters.filter(isRecord) : [];
    const parameter = parameters.find((candidate) => candidate.in === "path");
    const schema = parameter && isRecord(parameter.schema) ? parameter.schema : {};
    if (schema.type === "integer") return "int";
    return schema.format === "uuid" ? "uuid" : "str";
  }

  /** The component schema `ref` points at, with its fields. */
  schema(ref: string, path: (string | number)[]): ApiSchema {
    const name = ref.replace(/^#\/components\/schemas\//, "");
    const cached = this.cache.get(name);
    if (cached) return cached;
    const raw = this.schemas[name];
    if (!ref.startsWith("#/components/schemas/") || !isRecord(raw)) {
      throw new DocumentProblem(path, `"${ref}" names no schema of the document's components`);
    }
    const schema: ApiSchema = { name, fields: [], pk: typeof raw["x-pk"] === "string" ? raw["x-pk"] : undefined };
    this.cache.set(name, schema);
    const required = Array.isArray(raw.required) ? raw.required : [];
    const properties = isRecord(raw.properties) ? raw.properties : {};
    for (const [field, property] of Object.entries(properties)) {
      if (!isRecord(property)) continue;
      const read = this.field(field, property, required.includes(field), ["components", "schemas", name, "properties", field]);
      if (read.name === "actions" && read.many && read.nested && isActionRef(read.nested)) schema.actions = true;
      else schema.fields.push(read);
    }
    return schema;
  }

  private field(name: string, property: Json, required: boolean, path: (string | number)[]): ApiField {
    const variants = Array.isArray(property.anyOf) ? property.anyOf.filter(isRecord) : [property];
    const nonNull = variants.filter((variant) => variant.type !== "null");
    const nullable = nonNull.length < variants.length;
    if (nonNull.length !== 1) throw new DocumentProblem(path, "a field of several types cannot be shown or edited by the pages");
    const type = this.scalarComponent(nonNull[0]!);
    const field: ApiField = {
      name,
      nullable,
      required,
      many: false,
      kind: "str",
      ...("default" in property && { default: property.default }),
      ...(typeof property["x-references"] === "string" && { references: property["x-references"] }),
    };
    const choices = enumMembers(type);
    if (choices) return { ...field, kind: "enum", choices };
    if (typeof type.$ref === "string") return { ...field, kind: "nested", nested: this.schema(type.$ref, path) };
    if (type.type === "array" && isRecord(type.items) && typeof type.items.$ref === "string") {
      return { ...field, kind: "nested", many: true, nested: this.schema(type.items.$ref, path) };
    }
    // The keys of related rows (a many-to-many relationship a body writes): a list of one key type.
    if (type.type === "array" && isRecord(type.items) && field.references !== undefined) {
      const kind = scalarKind(type.items);
      if (kind) return { ...field, kind, many: true };
    }
    const kind = scalarKind(type);
    if (!kind) throw new DocumentProblem(path, `a field of type ${JSON.stringify(type.type ?? type)} cannot be shown or edited by the pages`);
    return { ...field, kind };
  }

  /**
   * The component a `$ref` names when it is a value rather than an object (Pydantic writes a
   * Python `Enum` as one: `ArticleStatus`, a string enum); else `type` itself.
   */
  private scalarComponent(type: Json): Json {
    if (typeof type.$ref !== "string") return type;
    const component = this.schemas[type.$ref.replace(/^#\/components\/schemas\//, "")];
    return isRecord(component) && typeof component.type === "string" && component.type !== "object" ? component : type;
  }

  private securitySchemes(): Json[] {
    const components = isRecord(this.document.components) ? this.document.components : {};
    return isRecord(components.securitySchemes) ? Object.values(components.securitySchemes).filter(isRecord) : [];
  }

  private tokenOperation(): ApiOperation | undefined {
    for (const scheme of this.securitySchemes()) {
      const flows = isRecord(scheme.flows) ? scheme.flows : {};
      const password = isRecord(flows.password) ? flows.password : undefined;
      if (scheme.type !== "oauth2" || !password || typeof password.tokenUrl !== "string") continue;
      const path = `/${password.tokenUrl.replace(/^\//, "")}`;
      const op = this.operation(path, "post");
      if (op) return this.describe(path, "post", op);
    }
    return undefined;
  }

  /** The session endpoint and logout, found by their operation ids, when a scheme reads the token from a cookie. */
  private cookieSession(): ApiCookieSession | undefined {
    if (!this.securitySchemes().some((scheme) => scheme.type === "apiKey" && scheme.in === "cookie")) return undefined;
    // Only their ids and paths matter: the pages call them, they show none of their schemas.
    let sessionPath: string | undefined;
    let logout = false;
    for (const [path, item] of Object.entries(this.paths)) {
      if (!isRecord(item)) continue;
      if (isRecord(item.get) && item.get.operationId === SESSION_OPERATION_ID) sessionPath = path;
      if (isRecord(item.post) && item.post.operationId === LOGOUT_OPERATION_ID) logout = true;
    }
    return sessionPath !== undefined && logout ? { sessionPath, sessionOperationId: SESSION_OPERATION_ID, logoutOperationId: LOGOUT_OPERATION_ID } : undefined;
  }
}

/** `{name, scope}`: an operation the user may call (the `be` target's `ActionRef`). */
function isActionRef(schema: ApiSchema): boolean {
  const name = schema.fields.find((field) => field.name === "name");
  const scope = schema.fields.find((field) => field.name === "scope");
  return schema.fields.length === 2 && name?.kind === "str" && scope?.kind === "enum";
}

/** The members of an enum of strings or of numbers, in the document's order; none for anything else. */
function enumMembers(type: Json): (string | number)[] | undefined {
  if (!Array.isArray(type.enum) || type.enum.length === 0) return undefined;
  const member = type.type === "string" ? "string" : type.type === "integer" || type.type === "number" ? "number" : undefined;
  return member && type.enum.every((value): value is string | number => typeof value === member) ? type.enum : undefined;
}

function scalarKind(type: Json): FieldKind | undefined {
  switch (type.type) {
    case "string":
      if (type.format === "uuid") return "uuid";
      if (type.format === "email") return "email";
      if (type.format === "date") return "date";
      if (type.format === "date-time") return "datetime";
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "object":
      return "json";
    default:
      return undefined;
  }
}
