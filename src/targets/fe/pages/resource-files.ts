// The files of one resource's pages under src/generated/<key>/: shared helpers, the list,
// the detail page, the create and edit forms, and the actions. Each builder writes the
// file's code pieces and records the symbols they use; the templates lay them out.

import { type Lookup, cell, cellText } from "./cells.js";
import { Imports, commentText, groupsArray, jsxAttr, jsxText, member, propertyKey, tsString } from "./code.js";
import { downloadButton, uploadPageFile } from "./file-pages.js";
import { filtersFile } from "./filter-files.js";
import { type Gate, gateOf, permissionsQuery, sectionGate, signedInStatement } from "./gates.js";
import { type FormField, type Pickers, bodyValue, draftMember, initialValue, inputElement, valueFromRow } from "./inputs.js";
import { type PageAction, type PageField, type PageForm, type PageList, type PageResource, type PageViews, clientName, withoutShadowedReferences } from "./model.js";
import { CLIENT, choiceLabelHook, choicesHook, helpersModule, pageModule, pathFn, titleFn } from "./names.js";
import { PageFile } from "./output.js";
import { createPresence, updatePresence } from "./presence.js";

const GENERATED = "src/generated";

/** Key of the row as the path parameter `pk` wants it, from a route's string. */
const routeKey = (resource: PageResource, text: string) => (resource.keyKind === "int" ? `Number(${text})` : text);

const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** "an article", "a tag": for doc comments only. */
const withArticle = (text: string) => `${/^[aeiou]/i.test(text) ? "an" : "a"} ${lower(text)}`;

function file(resource: PageResource, module: string, template: string, imports: Imports, context: Record<string, unknown>): PageFile {
  return new PageFile({
    path: `${GENERATED}/${module}.${template === "helpers.ts.njk" ? "ts" : "tsx"}`,
    template: `pages/${template}`,
    imports: imports.collector,
    context: { ...common(resource), ...context },
  });
}

function common(resource: PageResource) {
  return {
    pascal: resource.pascal,
    row: resource.camel,
    read_type: resource.readType,
    route: `/${resource.key}`,
    label_lower: commentText(lower(resource.label)),
    // The resource's labels as the config has them: the catalogue's messages put them in sentences.
    label: tsString(resource.label),
    plural_literal: tsString(resource.plural),
    key_access: member(resource.camel, resource.keyField),
    item_path: `${resource.path}/{pk}`,
  };
}

/**
 * A page's actions, each behind its gate (gates.ts), and the gate of their section. A page
 * without actions has no section (`actions` undefined: an empty list would be true to the template).
 */
function actionsSection(resource: PageResource, actions: PageAction[], permitted: string | undefined, imports: Imports): { actions?: { component: string; gate?: Gate }[]; actions_gate?: Gate } {
  if (actions.length === 0) return {};
  return {
    actions: actions.map((action) => ({ component: imports.use(pageModule(resource, "Actions"), actionComponent(action)), gate: gateOf(action, permitted, imports) })),
    actions_gate: sectionGate(actions, permitted, imports),
  };
}

/** Every file of `resource`'s pages; with a `catalog`, the forms' pickers ask `POST /_values`; `auth`: the pages have sign-in. */
export function resourceFiles(resource: PageResource, lookup: Lookup, catalog: boolean, auth: boolean): PageFile[] {
  const pickers: Pickers = { lookup, valuesFor: catalog ? resource.path : undefined };
  return [
    helpersFile(resource),
    ...(resource.list ? [listFile(resource, resource.list, lookup, auth)] : []),
    ...(resource.list?.filters ? [filtersFile(resource, resource.list.filters, lookup)] : []),
    ...(resource.get ? [detailFile(resource, lookup, auth)] : []),
    ...(resource.files && !resource.create ? [uploadPageFile(resource, resource.files, file)] : []),
    ...(resource.create ? [createFile(resource, resource.create, pickers)] : []),
    ...(resource.update && resource.get ? [editFile(resource, resource.update, pickers)] : []),
    ...(resource.actions.length > 0 ? [actionsFile(resource, pickers)] : []),
  ];
}

function helpersFile(resource: PageResource): PageFile {
  const imports = new Imports(resource.key);
  imports.type(CLIENT, resource.readType);
  if (resource.list || resource.get) imports.from("@tanstack/react-query", "useQuery");
  if (resource.list) {
    imports.type("runtime/picker", "Choice");
    imports.use("runtime/picker", "matchingChoices");
  }
  return file(resource, helpersModule(resource), "helpers.ts.njk", imports, {
    article: commentText(withArticle(resource.label)),
    plural: commentText(resource.plural),
    path_fn: pathFn(resource),
    title_fn: titleFn(resource),
    key_literal: tsString(resource.keyField),
    title_pick: resource.titleField === resource.keyField ? tsString(resource.keyField) : `${tsString(resource.titleField)} | ${tsString(resource.keyField)}`,
    title_access: member(resource.camel, resource.titleField),
    title_field_label: commentText(lower(resource.readFields.find((field) => field.name === resource.titleField)?.label ?? resource.titleField)),
    list: resource.list !== undefined,
    get: resource.get !== undefined,
    choices_hook: choicesHook(resource),
    choice_label_hook: choiceLabelHook(resource),
    list_options: resource.list ? imports.use(CLIENT, `${resource.list.fn}Options`) : "",
    get_options: resource.get ? imports.use(CLIENT, `${resource.get.fn}Options`) : "",
    max_limit: resource.list?.maxLimit,
    key_param: routeKey(resource, "key"),
  });
}

function listFile(resource: PageResource, list: PageList, lookup: Lookup, auth: boolean): PageFile {
  const imports = new Imports(resource.key);
  imports.from("@tanstack/react-query", "useQuery");
  imports.type(CLIENT, list.itemType);
  for (const name of ["DataTable", "Pager", "useCursorTrail", "useOrdering", "useRowsPerPage"]) imports.use("runtime/list", name);
  for (const name of ["ColumnChooser", "useShownColumns"]) imports.use("runtime/columns", name);
  imports.type("runtime/list", "Column");
  imports.use("runtime/shell", "QueryView");
  imports.use("runtime/shell", "Notice");
  imports.use("runtime/messages", "messages");
  if (resource.create || resource.files) imports.from("react-router", "Link");
  // The collection's operations (create, collection actions) by its permissions route, when it has one.
  const collectionRoute = resource.permissions?.collection;
  const permitted = collectionRoute ? "permitted" : undefined;
  const row = resource.camel;
  // The page's URL carries the list's query (order, search, filters) when it has one.
  const narrowed = list.search || list.orderFields.length > 0 || list.filters !== undefined;
  if (narrowed) imports.use("runtime/list", "useUrlQuery");
  if (list.search) imports.use("runtime/search", "SearchBox");
  const columns = list.columns.map((field) => ({
    id: tsString(field.name),
    label: tsString(field.label),
    sortable: list.orderFields.includes(field.name),
    always: field.name === resource.titleField && resource.get !== undefined,
    cell: field.name === resource.titleField && resource.get ? withDownload(resource, titleLink(resource, imports), imports) : cell(field, row, imports, lookup),
    text: cellText(field, row, imports, lookup),
  }));
  // Every row opens: without its title among the columns, the key leads as the link.
  if (resource.get && !list.columns.some((field) => field.name === resource.titleField)) {
    const key = resource.readFields.find((field) => field.name === resource.keyField);
    columns.unshift({
      id: tsString(resource.keyField),
      label: tsString(key?.label ?? resource.keyField),
      sortable: list.orderFields.includes(resource.keyField),
      always: true,
      cell: withDownload(resource, keyLink(resource, imports), imports),
      text: `(${row}) => ${imports.use("runtime/export", "plainText")}(${member(row, resource.keyField)})`,
    });
  }
  const collection = resource.actions.filter((action) => action.target === "collection");
  const adds = resource.create ?? resource.files?.upload;
  return file(resource, pageModule(resource, "List"), "list.tsx.njk", imports, {
    // The page's state before its list: who is signed in (asked once, whoever needs it), what they may call.
    setup: [...new Set([...(list.views ? [signedInStatement(imports)] : []), ...(collectionRoute ? permissionsQuery(collectionRoute, "", auth, imports) : [])])],
    bulk: bulkOperations(resource, list, imports),
    export: {
      component: imports.use("runtime/export", "ExportCsv"),
      list_fn: imports.use(CLIENT, list.fn),
      limit: list.maxLimit,
      position: pageQuery(list, "position"),
      next: nextPosition(list, "data"),
      filename: jsxAttr("filename", `${resource.key.replaceAll("/", "-")}.csv`),
    },
    read_type: list.itemType,
    list_key: tsString(resource.key),
    page_size: list.pageSize,
    page_sizes: pageSizes(list).join(", "),
    max_limit: list.maxLimit,
    total: list.total,
    // The page counts the rows where the list can; the export, which reads them all, never asks.
    page_query: `${pageQuery(list, "trail.cursor")}${list.total ? ", total: true" : ""}`,
    next_page: nextPosition(list, "page"),
    paging: list.paging,
    columns,
    plural: commentText(resource.plural),
    plural_jsx: jsxText(resource.plural),
    list_path: resource.path,
    list_options: imports.use(CLIENT, `${list.fn}Options`),
    url_query_type: narrowed ? `${imports.type(CLIENT, `${clientName(list.fn, true)}Data`)}["query"]` : undefined,
    search_label: list.search,
    filters: list.filters ? imports.use(pageModule(resource, "Filters"), `${resource.pascal}Filters`) : undefined,
    // A file resource adds rows by uploading (its upload page is at /new, as a create form would be).
    create: adds && {
      gate: gateOf(adds, permitted, imports),
      text: resource.create ? `{t.newRow(${tsString(resource.label)})}` : `{t.uploadRow(${tsString(resource.label)})}`,
    },
    ...actionsSection(resource, collection, permitted, imports),
    views: list.views && savedViews(list.views, imports),
  });
}

/**
 * The saved views of a list page (runtime/views): its reader's views, asked only once someone
 * is signed in (the page's `signedIn`), since each view is its owner's; the SDK's calls that
 * save and delete one.
 */
function savedViews(views: PageViews, imports: Imports) {
  return {
    component: imports.use("runtime/views", "SavedViews"),
    list_options: imports.use(CLIENT, `${views.list.fn}Options`),
    body_type: imports.type(CLIENT, views.create.bodyType),
    create_fn: imports.use(CLIENT, views.create.fn),
    remove_fn: imports.use(CLIENT, views.remove.fn),
    remove_param: propertyKey(views.remove.param),
  };
}

/** The rows-per-page choices: the list's own page size among the usual ones, none past its largest page. */
function pageSizes(list: PageList): number[] {
  const sizes = new Set([10, 25, 50, 100, list.pageSize].filter((size) => size <= list.maxLimit));
  return [...sizes].sort((a, b) => a - b);
}

// A page's position is text, as the URL's trail keeps it: a cursor, or an offset.

/** The query member asking for the page at `position` (a string or undefined: the first page). */
function pageQuery(list: PageList, position: string): string {
  return list.paging === "cursor" ? `cursor: ${position}` : `offset: Number(${position} ?? 0)`;
}

/** The position of the page after `page` (a list answer), or null after the last. */
function nextPosition(list: PageList, page: string): string {
  return list.paging === "cursor" ? `${page}.next_cursor` : `${page}.next_offset === null ? null : String(${page}.next_offset)`;
}

/**
 * What a list's chosen rows can go through, one request per row (the backend has no bulk
 * route): delete, when the resource has it, and every instance action without params. Each is
 * offered to the users whose groups may call it, and only they choose rows.
 */
function bulkOperations(resource: PageResource, list: PageList, imports: Imports) {
  const row = resource.camel;
  const single = resource.actions.filter((action) => action.target === "instance" && action.params === undefined);
  const candidates = [...(resource.delete ? [{ label: "t.delete", deletes: true, op: resource.delete }] : []), ...single.map((action) => ({ label: tsString(action.label), deletes: false, op: action }))];
  if (candidates.length === 0) return undefined;
  // Each row the list answers says what the reader may call on it: an operation is for rows that name it.
  const rowsPermit = resource.permissions?.listRows === true;
  for (const name of ["BulkBar", "useSelection", "usableOperations"]) imports.use("runtime/bulk", name);
  const titled = list.columns.some((field) => field.name === resource.titleField);
  return {
    operations: candidates.map(({ label, deletes, op }) => {
      const groups = groupsArray(op);
      if (groups !== "") imports.use("session", "useAllowed");
      return {
        label,
        deletes,
        groups,
        allowed: `may${op.fn[0]!.toUpperCase()}${op.fn.slice(1)}`,
        permits:
          rowsPermit && op.name !== undefined
            ? `(${row}) => ${imports.use("runtime/permissions", "permits")}(${imports.use("runtime/permissions", "permittedOf")}(${row}.actions), ${tsString(op.name)})`
            : undefined,
        run: `(${row}) => ${imports.use(CLIENT, op.fn)}({ path: { pk: ${member(row, resource.keyField)} }, throwOnError: true })`,
      };
    }),
    // Rows are named by their title when the list's items carry it, else by their key.
    name: titled ? imports.use(helpersModule(resource), titleFn(resource)) : `(${row}) => String(${member(row, resource.keyField)})`,
    singular: jsxAttr("singular", resource.label),
    plural: jsxAttr("plural", resource.plural),
  };
}

function keyLink(resource: PageResource, imports: Imports): string {
  const row = resource.camel;
  const link = imports.from("react-router", "Link");
  return `<${link} to={${imports.use(helpersModule(resource), pathFn(resource))}(${row})}>{String(${member(row, resource.keyField)})}</${link}>`;
}

function titleLink(resource: PageResource, imports: Imports): string {
  const row = resource.camel;
  const link = imports.from("react-router", "Link");
  return `<${link} to={${imports.use(helpersModule(resource), pathFn(resource))}(${row})}>{${imports.use(helpersModule(resource), titleFn(resource))}(${row})}</${link}>`;
}

/** A file row's link, and beside it the button that downloads its bytes. */
function withDownload(resource: PageResource, link: string, imports: Imports): string {
  return resource.files ? `<>${link} ${downloadButton(resource, resource.files, imports)}</>` : link;
}

function detailFile(resource: PageResource, lookup: Lookup, auth: boolean): PageFile {
  const imports = new Imports(resource.key);
  imports.from("@tanstack/react-query", "useQuery");
  imports.from("react-router", "useParams");
  imports.type(CLIENT, resource.readType);
  imports.use("runtime/shell", "QueryView");
  imports.use("runtime/shell", "Notice");
  const edit = resource.update !== undefined;
  if (edit) {
    imports.from("react-router", "Link");
    imports.use(helpersModule(resource), pathFn(resource));
  }
  if (resource.delete) imports.use("runtime/dialog", "DeleteButton");
  const instance = resource.actions.filter((action) => action.target === "instance");
  if (edit || resource.delete || instance.length > 0 || resource.files) imports.use("runtime/messages", "messages");
  // The row's operations by what the row says (its `actions`), else by its permissions route.
  const permissions = resource.permissions;
  const permitted = permissions?.rows
    ? [`const permitted = ${imports.use("runtime/permissions", "permittedOf")}(${member(resource.camel, "actions")});`]
    : permissions?.row && permissionsQuery(permissions.row, `{ path: { pk: ${member(resource.camel, resource.keyField)} } }`, auth, imports);
  const gateVariable = permitted ? "permitted" : undefined;
  return file(resource, pageModule(resource, "Detail"), "detail.tsx.njk", imports, {
    get_options: imports.use(CLIENT, `${resource.get!.fn}Options`),
    route_key: routeKey(resource, "pk"),
    title_fn: imports.use(helpersModule(resource), titleFn(resource)),
    path_fn: pathFn(resource),
    permitted,
    download: resource.files && downloadButton(resource, resource.files, imports),
    edit,
    edit_gate: gateOf(resource.update, gateVariable, imports),
    delete: resource.delete !== undefined,
    delete_gate: gateOf(resource.delete, gateVariable, imports),
    delete_mutation: resource.delete ? imports.use(CLIENT, `${resource.delete.fn}Mutation`) : "",
    fields: withoutShadowedReferences(resource.readFields).map((field) => ({ label: jsxText(field.label), cell: cell(field, resource.camel, imports, lookup) })),
    ...actionsSection(resource, instance, gateVariable, imports),
  });
}

/** Draft members, initial values, body values and inputs of a form's fields. */
function formParts(fields: FormField[], imports: Imports, pickers: Pickers, initial: (input: FormField) => string) {
  const body = fields.map((input) => ({ name: input.field.name, value: bodyValue(input, "draft") }));
  return {
    draft_members: fields.map((input) => draftMember(input, imports)),
    field_names: fields.map(({ field }) => tsString(field.name)).join(", "),
    initial: fields.map((input) => ({ name: input.field.name, value: initial(input) })),
    body,
    // A body of checkboxes only parses nothing: the parameter is then marked unused for tsc.
    parser: body.some((field) => field.value.startsWith("parse.")) ? "parse" : "_parse",
    inputs: fields.map((input) => inputElement(input, imports, pickers, { draft: "draft", errors: "form.errors.fields" })),
  };
}

function formImports(resource: PageResource): Imports {
  const imports = new Imports(resource.key);
  for (const name of ["useMutation", "useQueryClient"]) imports.from("@tanstack/react-query", name);
  imports.from("react-router", "useNavigate");
  imports.type("runtime/draft", "DraftParser");
  for (const name of ["FormFrame", "useDraft", "useFormErrors"]) imports.use("runtime/forms", name);
  imports.use("runtime/unsaved", "useUnsavedChanges");
  imports.use(helpersModule(resource), pathFn(resource));
  imports.use("runtime/messages", "messages");
  return imports;
}

function createFile(resource: PageResource, form: PageForm, pickers: Pickers): PageFile {
  const imports = formImports(resource);
  const fields = form.fields.map((field) => ({ field, presence: createPresence(field) }));
  return file(resource, pageModule(resource, "Create"), "create.tsx.njk", imports, {
    ...formParts(fields, imports, pickers, (input) => initialValue(input, imports)),
    draft_type: `${resource.pascal}CreateDraft`,
    body_fn: `${resource.camel}CreateBody`,
    body_type: imports.type(CLIENT, form.bodyType),
    fn: form.fn,
    mutation: imports.use(CLIENT, `${form.fn}Mutation`),
    path_fn: pathFn(resource),
    create_path: `/${resource.key}/new`,
  });
}

function editFile(resource: PageResource, form: PageForm, pickers: Pickers): PageFile {
  const imports = formImports(resource);
  imports.from("@tanstack/react-query", "useQuery");
  imports.from("react-router", "useParams");
  imports.type(CLIENT, resource.readType);
  imports.use("runtime/shell", "QueryView");
  const readField = (field: PageField) => resource.readFields.find((candidate) => candidate.name === field.name);
  const fields = form.fields.map((field) => ({ field, presence: updatePresence(field, readField(field)) }));
  const title = imports.use(helpersModule(resource), titleFn(resource));
  return file(resource, pageModule(resource, "Edit"), "edit.tsx.njk", imports, {
    ...formParts(fields, imports, pickers, (input) => valueFromRow(input, resource.camel, readField(input.field), imports, pickers.lookup)),
    draft_type: `${resource.pascal}EditDraft`,
    body_fn: `${resource.camel}UpdateBody`,
    body_type: imports.type(CLIENT, form.bodyType),
    fn: form.fn,
    mutation: imports.use(CLIENT, `${form.fn}Mutation`),
    get_options: imports.use(CLIENT, `${resource.get!.fn}Options`),
    route_key: routeKey(resource, "pk"),
    path_fn: pathFn(resource),
    title_fn: title,
  });
}

/** The component of an action: `PublishArticleAction`. */
export function actionComponent(action: PageAction): string {
  return `${action.fn.charAt(0).toUpperCase()}${action.fn.slice(1)}Action`;
}

function actionsFile(resource: PageResource, pickers: Pickers): PageFile {
  const imports = new Imports(resource.key);
  for (const name of ["useMutation", "useQueryClient"]) imports.from("@tanstack/react-query", name);
  imports.use("runtime/actions", "ActionPanel");
  const instance = resource.actions.some((action) => action.target === "instance");
  if (instance) imports.type(CLIENT, resource.readType);
  const actions = resource.actions.map((action) => {
    const pathOption = action.target === "instance" ? `path: { pk: ${member(resource.camel, resource.keyField)} }` : "";
    const context = {
      component: actionComponent(action),
      title: action.label,
      fn: action.fn,
      path: action.target === "instance" ? `${resource.path}/{pk}/${action.slug}` : `${resource.path}/${action.slug}`,
      instance: action.target === "instance",
      mutation: imports.use(CLIENT, `${action.fn}Mutation`),
      label_attr: jsxAttr("label", action.label),
      result: action.target === "collection" && !action.answersWithRow,
      path_option: pathOption === "" ? "" : `${pathOption}, `,
      path_option_bare: pathOption === "" ? "" : ` ${pathOption} `,
      params: action.params !== undefined,
      confirm: action.confirm,
    };
    if (!action.params) {
      imports.use("runtime/errors", "explain");
      return context;
    }
    imports.from("react", "useState");
    imports.type("runtime/draft", "DraftParser");
    for (const name of ["FormFrame", "useDraft", "useFormErrors"]) imports.use("runtime/forms", name);
    imports.use("runtime/messages", "messages");
    const fields = action.params.fields.map((field) => ({ field, presence: createPresence(field) }));
    const base = action.fn.charAt(0).toUpperCase() + action.fn.slice(1);
    return {
      ...context,
      ...formParts(fields, imports, pickers, (input) => initialValue(input, imports)),
      draft_type: `${base}Draft`,
      empty: `empty${base}`,
      body_fn: `${action.fn}Body`,
      body_type: imports.type(CLIENT, action.params.bodyType),
    };
  });
  return file(resource, pageModule(resource, "Actions"), "actions.tsx.njk", imports, { actions });
}
