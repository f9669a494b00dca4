// The pages of a front end, decided once from the OpenAPI document and the `pages` config:
// per resource its names, key and title fields, columns, forms and actions, with every
// reference and nested link resolved to another resource. Problems are reported at the
// config path that can fix them; operations and templates only read the result.

import { Name } from "../../../codegen/index.js";
import type { PagesConfig, ResourcePages } from "./config.js";
import { TEXT_KINDS } from "./kinds.js";
import { type ApiField, type ApiList, type ApiModel, type ApiOperation, type ApiResource, type ApiSchema, DocumentProblem, readOpenApi } from "./openapi.js";

export interface PageField {
  name: string;
  label: string;
  kind: ApiField["kind"];
  nullable: boolean;
  required: boolean;
  many: boolean;
  default?: unknown;
  /** The members an `enum` field may hold, in the document's order. */
  choices?: (string | number)[];
  multiline: boolean;
  /** Key of the resource whose key this scalar field holds. */
  references?: string;
  /** For a nested field: the resource its objects are rows of, when the pages have one. */
  link?: string;
  nested?: ApiSchema;
}

export interface PageOperation {
  /** The SDK function openapi-ts writes for the operation (`listArticles`). */
  fn: string;
  secured: boolean;
  /** Only members of these groups may call it: the pages hide it from others (with a session to ask). */
  groups?: readonly string[];
  /** Its name in the backend's permissions (`publish_article`): offered only when they name it. */
  name?: string;
}

/** A file resource's routes (docs/fe.md, Files): the upload page and the download buttons call them. */
export interface PageFiles {
  upload: PageOperation & { bodyType: string };
  complete: PageOperation;
  download: PageOperation;
  /** The file input's `accept`: the media types the upload takes, when the backend lists them. */
  accept?: string;
  /** The read field holding the file's own name (`original_filename`): the name a download is saved under. */
  nameField?: string;
  /** The read field that is null until the bytes are in (`uploaded_at`): nothing to download before. */
  storedField?: string;
}

/** Where the backend says which operations the reader may call (docs/fe.md, Permissions). */
export interface PagePermissions {
  /** `GET {prefix}/permissions`: the collection's operations. */
  collection?: PageOperation;
  /** `GET {prefix}/{pk}/permissions`: one row's. */
  row?: PageOperation;
  /** The rows get answers carry their `actions`. */
  rows: boolean;
  /** The rows the list answers carry their `actions`. */
  listRows: boolean;
}

/** A signed-in reader's saved views of a list (docs/fe.md, Saved views): the list page saves, applies and deletes them. */
export interface PageViews {
  list: PageOperation;
  create: PageOperation & { bodyType: string };
  /** Its path parameter, naming the view (`view_id`). */
  remove: PageOperation & { param: string };
}

export interface PageList extends PageOperation {
  /** The items' type: the read type, unless the list answers with a shape of its own (`ArticleSummary`). */
  itemType: string;
  /** The list page's columns: fields of the items. */
  columns: PageField[];
  pageSize: number;
  /** How the list page asks for the next page (see `ApiList`). */
  paging: "cursor" | "offset";
  /** Largest page the list serves: the pickers' option count, the largest rows-per-page choice. */
  maxLimit: number;
  /** The list says how many rows its query selects (see `ApiList`). */
  total: boolean;
  /** The list takes `q`: its page has a search box. */
  search: boolean;
  /** The fields `order_by` may name: their columns' headers order the list. */
  orderFields: string[];
  /** The filter bar, when the backend describes its filters (`GET /_filters`). */
  filters?: PageFilters;
  /** The reader's saved views, where the backend keeps them and the pages have sign-in. */
  views?: PageViews;
}

/** A list's filter bar: what the pages know of each field (the controls come from the catalog). */
export interface PageFilters {
  /** Each filtered field: its label and, for a key, the resource whose row names it. */
  fields: { name: string; label: string; references?: string }[];
}

/** The backend's discovery routes (`GET /_filters`, `POST /_values`): their SDK functions. */
export interface PageCatalog {
  catalogFn: string;
  valuesFn: string;
  /** The catalog needs a signed-in reader: nobody else asks for it. */
  needsSession: boolean;
}

export interface PageForm extends PageOperation {
  /** The request body's type (`ArticleCreate`). */
  bodyType: string;
  fields: PageField[];
}

export interface PageAction extends PageOperation {
  label: string;
  slug: string;
  target: "instance" | "collection";
  /** The params type and fields, for an action with a body. */
  params?: PageForm;
  /** It answers with the refreshed row (instance actions of the be target do). */
  answersWithRow: boolean;
  /** Ask before running it (config `actions.<slug>.confirm`). */
  confirm: boolean;
}

export interface PageResource {
  /** `articles`; also the route (`/articles`) and the directory of its pages. */
  key: string;
  /** The API's collection path. */
  path: string;
  /** `Article`: prefixes the components (`ArticleList`). */
  pascal: string;
  /** `article`: the row variable, and prefixes helpers (`articlePath`). */
  camel: string;
  label: string;
  plural: string;
  keyField: string;
  keyKind: "uuid" | "int" | "str";
  titleField: string;
  readType: string;
  readFields: PageField[];
  list?: PageList;
  get?: PageOperation;
  create?: PageForm;
  update?: PageForm;
  delete?: PageOperation;
  actions: PageAction[];
  files?: PageFiles;
  permissions?: PagePermissions;
}

export interface PagesModel {
  title: string;
  /** The language tag the config pins the pages to; undefined: the browser's choice. */
  language?: string;
  resources: PageResource[];
  navigation: PageResource[];
  /** The token operation's SDK function, when the backend has the password flow. */
  tokenFn?: string;
  /** The session is the backend's HttpOnly cookie (docs/fe.md, Sessions): its SDK functions and the session endpoint's path. */
  cookieSession?: { sessionFn: string; logoutFn: string; sessionPath: string };
  /** The filter catalog and its values, when the backend serves them: filter bars and pickers read them. */
  catalog?: PageCatalog;
}

/** A problem and the config path it is reported at. */
export interface PagesIssue {
  path: (string | number)[];
  message: string;
}

const TITLE_CANDIDATES = ["name", "title", "label", "slug", "username", "email"];
/** The `be` target's file columns (docs/be.md#files): a file's own name, and when its bytes arrived. */
const FILE_NAME = "original_filename";
const FILE_STORED = "uploaded_at";
const DEFAULT_COLUMNS = 6;
const DEFAULT_PAGE_SIZE = 25;

/** The name openapi-ts gives an operation's SDK function or a schema's type. */
export function clientName(raw: string, pascal = false): string {
  const parts = raw.split(/[^A-Za-z0-9]+/).filter((part) => part !== "");
  const joined = parts.map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1))).join("");
  const first = pascal ? joined[0]!.toUpperCase() : joined[0]!.toLowerCase();
  return first + joined.slice(1);
}

/** "published_at" → "Published at"; "StockMovement" → "Stock movement". */
export function sentence(raw: string): string {
  const words = new Name(raw).snake.split("_").filter((word) => word !== "");
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `fields` without a reference whose row is also shown nested (`author_id` beside `author`). */
export function withoutShadowedReferences(fields: readonly PageField[]): PageField[] {
  const nested = new Set(fields.filter((field) => field.kind === "nested" && !field.many).map((field) => field.name));
  return fields.filter((field) => !(field.references && nested.has(field.name.replace(/_id$/, ""))));
}

/** Builds the model, or returns the problems found (each at its config path). */
export function buildPagesModel(pages: PagesConfig): { model?: PagesModel; issues: PagesIssue[] } {
  let api: ApiModel;
  try {
    api = readOpenApi(pages.openapi);
  } catch (error) {
    if (!(error instanceof DocumentProblem)) throw error;
    return { issues: [{ path: ["openapi", ...error.path], message: error.message }] };
  }
  return new ModelBuilder(pages, api).build();
}

class ModelBuilder {
  private readonly issues: PagesIssue[] = [];
  private readonly byKey = new Map<string, ApiResource>();

  constructor(
    private readonly pages: PagesConfig,
    private readonly api: ApiModel,
  ) {
    for (const resource of api.resources) this.byKey.set(resource.path.slice(1), resource);
  }

  build(): { model?: PagesModel; issues: PagesIssue[] } {
    if (this.api.resources.length === 0) {
      this.issue(["openapi", "paths"], "the document has no resources: no list at {prefix} nor get at {prefix}/{pk}");
    }
    for (const key of Object.keys(this.pages.resources)) {
      if (!this.byKey.has(key)) this.issue(["resources", key], `no resource at /${key} in the OpenAPI document; ${this.known()}`);
    }
    const resources = this.api.resources.map((resource) => this.resource(resource));
    const keys = new Set(resources.map((resource) => resource.key));
    const navigationKeys = this.pages.navigation ?? resources.filter((resource) => resource.list).map((resource) => resource.key);
    this.pages.navigation?.forEach((key, index) => {
      const resource = resources.find((candidate) => candidate.key === key);
      if (!resource) this.issue(["navigation", index], `no resource at /${key} in the OpenAPI document; ${this.known()}`);
      else if (!resource.list) this.issue(["navigation", index], `/${key} has no list to navigate to`);
    });
    for (const resource of resources) {
      const fields = [...resource.readFields, ...(resource.create?.fields ?? []), ...(resource.update?.fields ?? []), ...resource.actions.flatMap((action) => action.params?.fields ?? [])];
      const unknown = new Map(fields.filter((field) => field.references && !keys.has(field.references)).map((field) => [field.name, field.references!]));
      for (const [name, references] of unknown) {
        this.issue(["resources", resource.key, "fields", name, "references"], `no resource at /${references} in the OpenAPI document; ${this.known()}`);
      }
    }
    if (this.issues.length > 0) return { issues: this.issues };
    const navigation = navigationKeys.map((key) => resources.find((resource) => resource.key === key)!);
    const tokenFn = this.api.tokenOperation ? clientName(this.api.tokenOperation.operationId) : undefined;
    const discovery = this.api.discovery;
    const catalog = discovery && {
      catalogFn: clientName(discovery.catalogOperationId),
      valuesFn: clientName(discovery.valuesOperationId),
      needsSession: discovery.secured && tokenFn !== undefined,
    };
    const cookie = tokenFn === undefined ? undefined : this.api.cookieSession;
    const cookieSession = cookie && { sessionFn: clientName(cookie.sessionOperationId), logoutFn: clientName(cookie.logoutOperationId), sessionPath: cookie.sessionPath };
    const title = this.pages.title ?? (this.api.title || "Admin");
    return { model: { title, ...(this.pages.language !== undefined && { language: this.pages.language }), resources, navigation, tokenFn, ...(cookieSession && { cookieSession }), ...(catalog && { catalog }) }, issues: [] };
  }

  private issue(path: (string | number)[], message: string): void {
    this.issues.push({ path, message });
  }

  private known(): string {
    return `known resources: ${[...this.byKey.keys()].map((key) => `"${key}"`).join(", ")}`;
  }

  private resource(api: ApiResource): PageResource {
    const key = api.path.slice(1);
    const config: ResourcePages = this.pages.resources[key] ?? { fields: {}, actions: {} };
    const at = (...path: (string | number)[]) => ["resources", key, ...path];
    const base = api.read.name.replace(/Read$/, "") || api.read.name;
    const pascal = clientName(base, true);
    const readFields = api.read.fields.map((field) => this.field(field, config, api));
    const fieldNames = new Set(readFields.map((field) => field.name));

    for (const name of Object.keys(config.fields)) {
      const schemas = [api.read, api.create?.body, api.update?.body, ...api.actions.map((action) => action.body)];
      if (!schemas.some((schema) => schema?.fields.some((field) => field.name === name))) {
        this.issue(at("fields", name), `no field "${name}" in the schemas of /${key}`);
      }
    }
    const keyField = config.key ?? api.read.pk ?? this.defaultKey(api);
    if (!fieldNames.has(keyField)) this.issue(at("key"), `the read schema ${api.read.name} has no field "${keyField}"; set key`);
    const fileName = api.files && readFields.some((field) => field.name === FILE_NAME) ? FILE_NAME : undefined;
    const titleField = config.title_field ?? fileName ?? TITLE_CANDIDATES.find((name) => readFields.some((field) => field.name === name && TEXT_KINDS.has(field.kind))) ?? readFields.find((field) => TEXT_KINDS.has(field.kind) && field.name !== keyField)?.name ?? keyField;
    if (config.title_field && !fieldNames.has(config.title_field)) {
      this.issue(at("title_field"), `the read schema ${api.read.name} has no field "${config.title_field}"`);
    }
    for (const [slug, settings] of Object.entries(config.actions)) {
      const action = api.actions.find((candidate) => candidate.slug === slug);
      if (!action) this.issue(at("actions", slug), `no action "${slug}" at /${key}; known actions: ${api.actions.map((known) => `"${known.slug}"`).join(", ") || "none"}`);
      else if (settings.confirm && action.body) this.issue(at("actions", slug, "confirm"), "the action takes params: its form is where the reader confirms; confirm is for actions without params");
    }
    config.columns?.forEach((name, index) => {
      if (!fieldNames.has(name)) this.issue(at("columns", index), `the read schema ${api.read.name} has no field "${name}"`);
    });

    // Operations are hidden by group only in front ends with a session; the backend still refuses the others.
    // Where the backend names what the reader may call, an operation it names is offered by that answer.
    // The list's items: the read schema, unless the list answers with a representation of its own (a slimmer shape).
    const listItems = api.list?.response && api.list.response.name !== api.read.name ? api.list.response : api.read;
    const permitting = api.permissions !== undefined || api.read.actions === true || listItems.actions === true;
    const access = (op: ApiOperation) => ({
      secured: op.secured,
      ...(this.api.tokenOperation && op.groups && { groups: op.groups }),
      ...(permitting && op.name !== undefined && { name: op.name }),
    });
    const operation = (op: ApiOperation | undefined): PageOperation | undefined => op && { fn: clientName(op.operationId), ...access(op) };
    // A view belongs to a signed-in user: pages nobody signs in to have none to show.
    const views = api.views && this.api.tokenOperation && {
      list: operation(api.views.list)!,
      create: { ...operation(api.views.create)!, bodyType: clientName(api.views.createBody, true) },
      remove: { ...operation(api.views.remove)!, param: api.views.remove.path.slice(api.views.remove.path.lastIndexOf("{") + 1, -1) },
    };
    const list = (op: ApiList | undefined): PageList | undefined => {
      if (!op) return undefined;
      // The list's representation (listItems): its page shows those fields, and a configured column
      // it lacks cannot be shown, which the user must hear about.
      const fields = listItems === api.read ? readFields : listItems.fields.map((field) => this.field(field, config, api));
      if (config.page_size !== undefined && config.page_size > op.maxLimit) {
        this.issue(at("page_size"), `the list serves at most ${op.maxLimit} rows a page`);
      }
      config.columns?.forEach((name, index) => {
        if (fieldNames.has(name) && !fields.some((field) => field.name === name)) {
          this.issue(at("columns", index), `the list answers with ${listItems.name}, which has no field "${name}": add it to that representation in the backend, or leave the column out`);
        }
      });
      return {
        fn: clientName(op.operationId),
        ...access(op),
        itemType: clientName(listItems.name, true),
        columns: config.columns
          ? config.columns.flatMap((name) => fields.filter((field) => field.name === name))
          : this.defaultColumns(fields, keyField, titleField, api.pkKind),
        pageSize: config.page_size ?? Math.min(op.defaultLimit, DEFAULT_PAGE_SIZE),
        paging: op.paging,
        maxLimit: op.maxLimit,
        total: op.total,
        search: op.query.search,
        orderFields: op.query.orderFields,
        filters: this.filters(op, readFields, key, keyField, config.label ?? sentence(base)),
        ...(views && { views }),
      };
    };
    const form = (op: ApiOperation | undefined): PageForm | undefined => {
      if (!op?.body) return undefined;
      return { fn: clientName(op.operationId), ...access(op), bodyType: clientName(op.body.name, true), fields: op.body.fields.map((field) => this.field(field, config, api)) };
    };
    const files = api.files && {
      upload: { ...operation(api.files.upload)!, bodyType: clientName(api.files.upload.body!.name, true) },
      complete: operation(api.files.complete)!,
      download: operation(api.files.download)!,
      ...(api.files.contentTypes && { accept: api.files.contentTypes.join(",") }),
      ...(fileName && { nameField: fileName }),
      ...(readFields.some((field) => field.name === FILE_STORED && field.nullable) && { storedField: FILE_STORED }),
    };
    const permissions = permitting
      ? {
          ...(api.permissions?.collection && { collection: operation(api.permissions.collection) }),
          ...(api.permissions?.row && { row: operation(api.permissions.row) }),
          rows: api.read.actions === true,
          listRows: listItems.actions === true,
        }
      : undefined;
    return {
      key,
      path: api.path,
      pascal,
      camel: pascal[0]!.toLowerCase() + pascal.slice(1),
      label: config.label ?? sentence(base),
      plural: config.plural ?? sentence(key.split("/").at(-1)!.replace(/-/g, "_")),
      keyField,
      keyKind: api.pkKind,
      titleField,
      readType: clientName(api.read.name, true),
      readFields,
      list: list(api.list),
      get: operation(api.get),
      create: form(api.create),
      update: form(api.update),
      // A file's delete-file route deletes its bytes, then its row: the resource's delete.
      delete: operation(api.delete ?? api.files?.remove),
      ...(files && { files }),
      ...(permissions && { permissions }),
      actions: api.actions.map((action) => ({
        fn: clientName(action.operationId),
        ...access(action),
        label: sentence(action.slug.replace(/-/g, "_")),
        slug: action.slug,
        target: action.target,
        params: form(action),
        answersWithRow: action.response?.name === api.read.name,
        confirm: config.actions[action.slug]?.confirm ?? false,
      })),
    };
  }

  /** A key filter (`id`) picks rows of the list's own resource, named by its label. */
  private filters(op: ApiList, readFields: PageField[], key: string, keyField: string, label: string): PageFilters | undefined {
    if (!this.api.discovery || op.query.filterFields.length === 0) return undefined;
    const fields = op.query.filterFields.map((name) => {
      if (name === keyField) return { name, label, references: key };
      const field = readFields.find((candidate) => candidate.name === name);
      return { name, label: field?.label ?? sentence(name), ...(field?.references && { references: field.references }) };
    });
    return { fields };
  }

  private defaultKey(api: ApiResource): string {
    const fields = api.read.fields;
    if (fields.some((field) => field.name === "id")) return "id";
    const kind = api.pkKind === "int" ? "int" : api.pkKind === "uuid" ? "uuid" : "str";
    return fields.find((field) => field.kind === kind)?.name ?? fields[0]?.name ?? "id";
  }

  private defaultColumns(fields: PageField[], keyField: string, titleField: string, pkKind: string): PageField[] {
    const shown = withoutShadowedReferences(fields).filter(
      (field) => field.kind !== "json" && !field.many && !(field.name === keyField && pkKind === "uuid"),
    );
    const title = shown.find((field) => field.name === titleField);
    return [...(title ? [title] : []), ...shown.filter((field) => field !== title)].slice(0, DEFAULT_COLUMNS);
  }

  private field(field: ApiField, config: ResourcePages, owner: ApiResource): PageField {
    const settings = config.fields[field.name];
    const references = field.kind === "nested" ? undefined : settings?.references === null ? undefined : (settings?.references ?? field.references ?? this.conventionalReference(field));
    const referenced = references ? this.byKey.get(references) : undefined;
    return {
      name: field.name,
      // A key is labelled by the row it names ("Author" for author_id); a list of keys by its own name ("Tags").
      label: settings?.label ?? (referenced && !field.many ? sentence(referenced.read.name.replace(/Read$/, "")) : sentence(field.name)),
      kind: field.kind,
      nullable: field.nullable,
      required: field.required,
      many: field.many,
      ...("default" in field && { default: field.default }),
      ...(field.choices && { choices: field.choices }),
      multiline: settings?.multiline ?? false,
      ...(references && { references }),
      ...(field.kind === "nested" && { nested: field.nested, link: this.nestedLink(field, owner) }),
    };
  }

  /** `author_id` holding a uuid → the resource whose rows are `Author…Read` with a uuid key. */
  private conventionalReference(field: ApiField): string | undefined {
    const match = /^(.+)_id$/.exec(field.name);
    if (!match) return undefined;
    for (const [key, resource] of this.byKey) {
      const singular = new Name(resource.read.name.replace(/Read$/, "")).snake;
      const kindMatches = resource.pkKind === field.kind || (resource.pkKind === "str" && TEXT_KINDS.has(field.kind));
      if (singular === match[1] && kindMatches) return key;
    }
    return undefined;
  }

  /** The resource a nested field's objects are rows of: `author` → authors, `tags` → tags. */
  private nestedLink(field: ApiField, owner: ApiResource): string | undefined {
    const settings = this.pages.resources[owner.path.slice(1)]?.fields[field.name];
    if (settings?.references === null) return undefined;
    if (settings?.references) return settings.references;
    for (const [key, resource] of this.byKey) {
      const singular = new Name(resource.read.name.replace(/Read$/, "")).snake;
      const plural = key.split("/").at(-1)!.replace(/-/g, "_");
      const named = field.many ? plural === field.name : singular === field.name;
      const keyField = resource.read.pk ?? (resource.read.fields.some((candidate) => candidate.name === "id") ? "id" : undefined);
      if (named && keyField && field.nested?.fields.some((candidate) => candidate.name === keyField)) return key;
    }
    return undefined;
  }
}
