// The handler of a `list` entry and its typed handle: `ListHandler` owns the entry's
// `ListQuery`, which its modifiers amend (`filterBy`, `orderBy`, `paginate`, `where`), and
// renders from the final query: `GET {prefix}` with a query-parameter model, and with
// filters also `POST {prefix}/search` (an and/or tree) sharing one page helper.

import { listsActions } from "../permissions/row-actions.js";
import { ImportCollector, Name, type RenderCtx, renderTemplate } from "../../../../codegen/index.js";
import type { SearchConfig } from "../../config/schema.js";
import type { ListOptions } from "./options.js";
import { type CodeBlock, RouteHandler, RouteParam, distinctParams, renderFunction } from "../../modules/handler.js";
import type { Route } from "../../modules/endpoint.js";
import type { ReadSchema, RowSerializer } from "../../modules/read-shape.js";
import type { RowSerializerFn } from "../../modules/row-serializer.js";
import type { Helper, RoutesModule } from "../../modules/routes.js";
import { Field } from "../../modules/schemas.js";
import { pythonString } from "../../python/literals.js";
import { type ResourceView, operationId } from "../../resource.js";
import { ListQuery } from "./query.js";

/** The part of a list's page the GET and POST routes share, as the page template reads it. */
interface PageContext {
  request: string;
  where: string;
  source: string;
}

/** The path of the search route of a list at `path`, below the resource's prefix: `/search` for `""`. */
export function searchPathOf(path: string): string {
  return `${path}/search`;
}

/** `Article` (entry `list`) or `ArticleListPublished`: the prefix of a list entry's class names. */
function entryPrefix(view: ResourceView, entryName: string): string {
  return entryName === "list" ? view.model.name : `${view.model.name}${new Name(entryName).pascal}`;
}

/** `ArticleListQuery` (entry `list`) or `ArticleListPublishedQuery`: the query-parameter model of a list entry. */
export function listQueryModel(view: ResourceView, entryName: string): string {
  return `${entryPrefix(view, entryName)}${entryName === "list" ? "List" : ""}Query`;
}

/** How a list reads its page: as columns, with a row serializer, or as ORM objects, with their serializer and loader options. */
type PageReading = { rows: RowSerializerFn } | { serializer: RowSerializer; options: Helper | undefined };

/** A `list` entry's handler: `GET {prefix}`, and `POST {prefix}/search` once filtered. */
export class ListHandler extends RouteHandler {
  readonly query = new ListQuery();
  readonly read: ReadSchema;
  /** Class names and Python names derived from the entry. */
  readonly names: {
    /** `ArticleListQuery`: the query-parameter model. */
    queryModel: string;
    /** `ArticleSearch`: the body of `POST /search`. */
    searchBody: string;
    /** `Article` (entry `list`) or `ArticleListPublished`: prefix of the entry's filter classes. */
    prefix: string;
    /** `_LIST`: prefix of the entry's module constants. */
    constant: string;
  };
  /** How the page is read, decided once row actions are: columns (a row serializer), or ORM objects with their serializer and loader options. */
  #reading: PageReading | undefined;
  #search: Helper | undefined;

  /** Largest body of `POST …/search`, in bytes (the entry's `max_body_size`). */
  readonly #searchBodySize: number;

  constructor(options: { routes: RoutesModule; entry: ListOptions; route: Route; read: ReadSchema; session: RouteParam; searchBodySize: number }) {
    const { entry } = options;
    const view = options.routes.view;
    const name = entry.name === "list" ? `list_${view.plural}` : `${entry.name}_${view.plural}`;
    super({
      module: options.routes,
      entry,
      name,
      operationId: operationId(view, name),
      method: "GET",
      route: options.route,
      statusCode: 200,
      summary: entry.summary ?? "",
      session: options.session,
      representation: options.read,
      asksWhoIsSignedIn: listsActions(view, options.read),
    });
    this.read = options.read;
    this.#searchBodySize = options.searchBodySize;
    const prefix = entryPrefix(view, entry.name);
    this.names = {
      queryModel: listQueryModel(view, entry.name),
      searchBody: entry.name === "list" ? `${view.model.name}Search` : `${prefix}Search`,
      prefix,
      constant: `_${entry.name.toUpperCase()}`,
    };
  }

  /**
   * Reads the page as rows of columns with `rows` (`read`'s row serializer), or, when
   * undefined, as ORM objects: what the build decides once it knows whether anything
   * else takes the objects (row actions).
   */
  readRows(rows: RowSerializerFn | undefined): void {
    // The serializer of objects is asked for here, in the build: it is written only if asked, before the page renders.
    this.#reading = rows === undefined ? { serializer: this.read.serializer, options: this.module.readOptions(this.read) } : { rows };
  }

  /** How the page is read; a bug before `readRows`. */
  get #read(): PageReading {
    if (this.#reading === undefined) throw new Error(`bug: ${this.name} renders before its build chose how to read its page`);
    return this.#reading;
  }

  /** Searches the list with `?q=` (the resource's search), through the routes module's `_SEARCH`. */
  searchWith(search: SearchConfig): void {
    this.query.searchWith(search);
    this.#search = this.module.search(search);
  }

  /** The resource the list serves (its routes module's). */
  get view(): ResourceView {
    return this.module.view;
  }

  /** The path of the search route, below the resource's prefix. */
  get searchPath(): string {
    return searchPathOf(this.path);
  }

  get searchName(): string {
    return this.name.replace(/^list_/, "search_");
  }

  override get summary(): string {
    const written = (this.entry as ListOptions).summary;
    if (written !== undefined) return written;
    const how = [this.query.filters ? "filtered" : "", this.query.search ? "searched" : ""].filter(Boolean).join(" and ");
    const order = this.query.order ? `ordered by \`\`order_by\`\` (default: ${this.#defaultOrder()})` : `by ${this.view.pk}`;
    return `List ${this.view.labelPlural}${how ? `, ${how},` : ""} ${order}, one page at a time.`;
  }

  override get params(): readonly RouteParam[] {
    return [
      new RouteParam({
        name: "query",
        annotation: `Annotated[${this.names.queryModel}, Query()]`,
        imports: new ImportCollector().addFrom("typing", "Annotated").addFrom("fastapi", "Query").addFrom(this.view.schemaModule, this.names.queryModel),
      }),
    ];
  }

  override get responseModel(): string {
    return `${this.#offset ? "OffsetPage" : "Page"}[${this.read.responseModel}]`;
  }

  override get imports(): ImportCollector {
    const schema = this.read.schema;
    const shown = !("rows" in this.#read) || schema === undefined ? this.read.imports.copy() : new ImportCollector().addFrom(schema.module.dotted, schema.name);
    return shown.addFrom(`${this.view.runtimePackage}.pagination`, this.#offset ? "OffsetPage" : "Page");
  }

  get #offset(): boolean {
    return this.query.pagination.mode === "offset";
  }

  #defaultOrder(): string {
    const terms = this.query.order?.default ?? [];
    return terms.length > 0 ? terms.join(", ") : this.view.pk;
  }

  override blocks(ctx: RenderCtx): CodeBlock[] {
    this.checkAugmented();
    const search = this.#search;
    const pageContext = (page: PageContext) => ({ ...this.#pageContext(search), ...page });
    const blocks = [this.#constants()];
    const filters = this.query.filters;
    if (filters === undefined) {
      const page = renderTemplate(ctx.env, "operations/list/page.py.njk", pageContext({ request: "query", where: "", source: "" }));
      const body = this.checks + page.trimEnd();
      blocks.push({ code: renderFunction(ctx, { decorator: this.decorator, signature: this.signature, doc: this.summary, body }), imports: this.#pageImports(search).update(this.allImports) });
      return blocks;
    }
    const helper = `_${this.name}`;
    // What serializing the rows takes beyond the session, passed on by both routes.
    const actionParams = this.#rowParams;
    const passed = actionParams.map((param) => `, ${param.name}`).join("");
    const requestType = `${this.names.queryModel} | ${this.names.searchBody}`;
    const helperBody = renderTemplate(ctx.env, "operations/list/page.py.njk", pageContext({ request: "request", where: "*where", source: ", source=source" })).trimEnd();
    blocks.push({
      code: renderFunction(ctx, {
        decorator: "",
        signature: `async def ${helper}(session: AsyncSession, where: list[ColumnElement[bool]], request: ${requestType}, source: CursorSource${actionParams.map((param) => `, ${param.declaration}`).join("")}) -> ${this.responseModel}:`,
        doc: `One page of ${this.view.labelPlural} meeting *where*${search ? ", searched" : ""} and ordered as *request* asks.`,
        body: helperBody,
      }),
      imports: this.#pageImports(search)
        .addFrom("sqlalchemy", "ColumnElement")
        .addFrom("sqlalchemy.ext.asyncio", "AsyncSession")
        .addFrom(this.view.schemaModule, this.names.queryModel, this.names.searchBody)
        .addFrom(`${this.view.runtimePackage}.pagination`, "CursorSource")
        .update(actionParams.reduce((imports, param) => imports.update(param.imports), this.imports.copy())),
    });
    const filtersName = `${this.names.constant}_FILTERS`;
    blocks.push({
      code: renderFunction(ctx, {
        decorator: this.decorator,
        signature: this.signature,
        doc: this.summary,
        body: `${this.checks}    return await ${helper}(session, param_conditions(query, ${filtersName}), query, "query"${passed})`,
      }),
      imports: new ImportCollector().addFrom(`${this.view.runtimePackage}.filters`, "param_conditions").update(this.allImports),
    });
    const searchOperation = operationId(this.view, this.searchName);
    const bodyParam = new RouteParam({ name: "body", annotation: this.names.searchBody, imports: new ImportCollector().addFrom(this.view.schemaModule, this.names.searchBody) });
    blocks.push({
      code: renderFunction(ctx, {
        decorator: this.decoratorOf({
          method: "POST",
          path: this.searchPath,
          statusCode: 200,
          operationId: searchOperation,
          maxBodySize: this.#searchBodySize,
        }),
        signature: this.signatureOf(this.searchName, [bodyParam]),
        doc: `Search ${this.view.labelPlural} with an and/or tree of conditions${search ? " and ``q``" : ""}, one page at a time.`,
        body: `${this.checks}    return await ${helper}(session, [tree_condition(body.filter, ${filtersName})] if body.filter else [], body, "body"${passed})`,
      }),
      imports: new ImportCollector().addFrom(`${this.view.runtimePackage}.filters`, "tree_condition").update(bodyParam.imports).update(this.allImports),
    });
    return blocks;
  }

  /** `_LIST_FILTERS = {...}` and `_LIST_ORDER = Ordering(...)`, with a comment saying whose they are. */
  #constants(): CodeBlock {
    const model = this.view.model.local;
    const column = (name: string) => `${model}.${name}`;
    const imports = new ImportCollector().addFrom(this.view.model.module, this.view.model.importName).addFrom(`${this.view.runtimePackage}.ordering`, "Ordering");
    const lines: string[] = [];
    const filters = this.query.filters;
    if (filters) lines.push(`${this.names.constant}_FILTERS = {${filters.map((field) => `${pythonString(field.name)}: ${column(field.name)}`).join(", ")}}`);
    const order = this.query.order;
    const args = [column(this.view.pk)];
    if (order) {
      args.push(`{${order.fields.map((field) => `${pythonString(field.name)}: ${column(field.name)}`).join(", ")}}`);
      const nullable = order.fields.filter((field) => field.nullable).map((field) => pythonString(field.name));
      if (nullable.length > 0) args.push(`nullable=(${nullable.join(", ")}${nullable.length === 1 ? "," : ""})`);
      if (order.default.length > 0) args.push(`default=(${order.default.map(pythonString).join(", ")}${order.default.length === 1 ? "," : ""})`);
    }
    lines.push(`${this.names.constant}_ORDER = Ordering(${args.join(", ")})`);
    const what = [filters ? "filterable columns" : "", "order"].filter(Boolean).join(" and ");
    return { code: `# The ${what} of \`\`${this.method} ${this.view.routePrefix}\`\`.\n${lines.join("\n")}`, imports };
  }

  #pageContext(search: Helper | undefined): Record<string, unknown> {
    const common = {
      conditions: this.query.conditions.map((condition) => condition.expression).join(", "),
      search: search?.name,
      order: `${this.names.constant}_ORDER`,
      ordered: this.query.order !== undefined,
      offset: this.#offset,
      handler: this,
    };
    const reading = this.#read;
    if ("rows" in reading) return { ...common, statement: reading.rows.statement, columns: true, rows: "rows", row: "row", serializer: { name: reading.rows.name } };
    const { serializer, options } = reading;
    return {
      ...common,
      statement: `select(${this.view.model.local})${options ? `.options(*${options.name})` : ""}`,
      columns: false,
      rows: this.view.plural === this.view.variable ? `${this.view.plural}_page` : this.view.plural,
      row: this.view.variable,
      serializer,
    };
  }

  /** What the rows' serialization takes besides the session: the user kiln's serializer is given, what the actions helper takes. */
  get #rowParams(): RouteParam[] {
    const reading = this.#read;
    const user = "serializer" in reading && reading.serializer.kiln ? (this.user ?? this.optionalUser) : undefined;
    return distinctParams([...(user === undefined ? [] : [user]), ...(this.rowActions?.params ?? [])]);
  }

  #pageImports(search: Helper | undefined): ImportCollector {
    const reading = this.#read;
    const imports = new ImportCollector();
    if ("rows" in reading) {
      imports.addFrom(reading.rows.module.dotted, reading.rows.statement, reading.rows.name).addFrom(`${this.view.runtimePackage}.pagination`, this.#offset ? "offset_rows" : "keyset_rows");
    } else {
      imports
        .addFrom("sqlalchemy", "select")
        .addFrom(this.view.model.module, this.view.model.importName)
        .addFrom(reading.serializer.module.dotted, reading.serializer.name)
        .addFrom(`${this.view.runtimePackage}.pagination`, this.#offset ? "offset_page" : "keyset_page");
    }
    for (const condition of this.query.conditions) imports.update(condition.imports);
    return imports;
  }

  /** The fields of the query-parameter model: filters, `order_by`, `q`, then the page's. */
  queryFields(imports: ImportCollector): Field[] {
    const fields: Field[] = [];
    for (const filter of this.query.filters ?? []) {
      imports.update(filter.imports);
      for (const op of filter.operators) {
        const name = op === "eq" ? filter.name : `${filter.name}__${op}`;
        fields.push(new Field({ name, annotation: `${this.#valueAnnotation(filter.annotation, op, imports)} | None`, default: "None" }));
      }
    }
    return [...fields, ...this.#requestFields(imports, true)];
  }

  /** The fields of the search body after `filter`: `order_by`, `q`, then the page's. */
  searchFields(imports: ImportCollector): Field[] {
    return this.#requestFields(imports, false);
  }

  /** The annotation of a filter's query parameter for `op`: a list for `in`, a boolean for `is_null`. */
  #valueAnnotation(annotation: string, op: string, imports: ImportCollector): string {
    if (op === "is_null") return "bool";
    if (op !== "in") return annotation;
    // Shorter than a search's: the whole query fits the server's limit on a request's head.
    imports.addFrom("typing", "Annotated").addFrom(`${this.view.runtimePackage}.filters`, "CommaSeparated", "InQuery");
    return `Annotated[list[${annotation}], CommaSeparated, InQuery]`;
  }

  #requestFields(imports: ImportCollector, query: boolean): Field[] {
    const fields: Field[] = [];
    const order = this.query.order;
    if (order) {
      imports.addFrom("typing", "Annotated", "Literal").addFrom(`${this.view.runtimePackage}.ordering`, "NoRepeats");
      const names = order.fields.flatMap((field) => [field.name, `-${field.name}`]).map(pythonString).join(", ");
      if (query) imports.addFrom(`${this.view.runtimePackage}.filters`, "CommaSeparated");
      fields.push(
        new Field({
          name: "order_by",
          annotation: `Annotated[list[Literal[${names}]], ${query ? "CommaSeparated, " : ""}NoRepeats] | None`,
          default: "None",
          description: `Fields to sort by, ${query ? "comma-separated, " : ""}each at most once; a leading - sorts descending. Default: ${this.#defaultOrder()}.`,
        }),
      );
    }
    if (this.query.search) {
      imports.addFrom(`${this.view.runtimePackage}.search`, "SearchText");
      fields.push(new Field({ name: "q", annotation: "SearchText | None", default: "None", description: "Text to search for; the best matches come first." }));
    }
    const { default_page_size: size, max_page_size: max } = this.query.pagination;
    fields.push(new Field({ name: "limit", annotation: "int", default: `Field(default=${size}, ge=1, le=${max})`, description: `Rows per page, at most ${max}.` }));
    if (this.#offset) {
      fields.push(
        new Field({ name: "offset", annotation: "int", default: "Field(default=0, ge=0)", description: "Rows to skip." }),
        new Field({ name: "total", annotation: "bool", default: "False", description: "Also count every matching row (one more query)." }),
      );
    } else {
      fields.push(new Field({ name: "cursor", annotation: "str | None", default: "None", description: "The next_cursor of the previous page." }));
    }
    return fields;
  }
}
