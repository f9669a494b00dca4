// `{module}/routes/{name}.py`: the router of one resource, its handlers, and the helpers
// handlers share. Produced once per resource by `resource_files`; a helper is written only
// when a handler asked for it (`notFound()`, `loader()`), so each is defined exactly once.

import { FileFragment, type Fragment, ImportCollector, type RenderCtx, SnippetFragment } from "../../../codegen/index.js";
import { docstringText, pythonString } from "../python/literals.js";
import type { ResourceView } from "../resource.js";
import type { CodeBlock, RouteHandler } from "./handler.js";
import { READ_REPRESENTATION, type SearchConfig } from "../config/schema.js";
import { searchExpression } from "./project-names.js";
import type { ReadSchema } from "./read-shape.js";
import type { RowSerializerFn } from "./row-serializer.js";
import { capitalize } from "./read-shape.js";

/** A module-level helper function a handler calls. */
export interface Helper {
  /** The function's name in the routes module. */
  name: string;
}

/** A module-level function handlers call, written ahead of them (operations/permissions/row-actions.ts). */
export interface ModuleFunction {
  blocks(ctx: RenderCtx): CodeBlock[];
}

/** The routes module of one resource. */
export class RoutesModule {
  readonly path: string;
  readonly dotted: string;
  readonly view: ResourceView;
  readonly #handlers: RouteHandler[] = [];
  /** How many handlers `addAhead` put first, in the order added. */
  #ahead = 0;
  #notFound: Helper | undefined;
  readonly #functions: ModuleFunction[] = [];
  // Keyed by the shape whose relationships they load: `read` for the resource's fields
  // and the user's builders and serializers, else the representation's name.
  readonly #readOptions = new Map<string, { helper: Helper; read: ReadSchema }>();
  readonly #loaders = new Map<string, { helper: Helper; statement: string; read: ReadSchema }>();
  readonly #rowReaders = new Map<string, { helper: Helper; statement: string; rows: RowSerializerFn }>();
  #search: SearchConfig | undefined;
  #namesOperations = false;

  constructor(view: ResourceView) {
    this.view = view;
    this.path = view.routesFile;
    this.dotted = view.routesModule;
  }

  /** Adds a handler after those added earlier. */
  add(handler: RouteHandler): RouteHandler {
    this.#handlers.push(handler);
    return handler;
  }

  /**
   * Adds a handler before every other (after earlier ones added so): a route at a fixed path (`/permissions`) that a text
   * key's `{pk:path}` route of the same method would otherwise answer, as routes match in order.
   */
  addAhead(handler: RouteHandler): RouteHandler {
    this.#handlers.splice(this.#ahead++, 0, handler);
    return handler;
  }

  /**
   * Some answer of the module names its operations by their entries' names (the permissions
   * routes, the rows' `actions`): then each route's OpenAPI operation says its name (`x-name`),
   * so a client finds the route a name means.
   */
  nameOperations(): void {
    this.#namesOperations = true;
  }

  get namesOperations(): boolean {
    return this.#namesOperations;
  }

  /** Adds a function the module's handlers call. */
  addFunction(fn: ModuleFunction): void {
    this.#functions.push(fn);
  }

  get handlers(): readonly RouteHandler[] {
    return this.#handlers;
  }

  /** `_not_found(pk) -> HTTPException`, the 404 of a missing key. */
  notFound(): Helper {
    this.#notFound ??= { name: "_not_found" };
    return this.#notFound;
  }

  /** `_READ_OPTIONS` (`_SUMMARY_OPTIONS`, …), the loader options of everything `read` shows; undefined when it shows no relationship. */
  readOptions(read: ReadSchema): Helper | undefined {
    if (read.loaders.length === 0) return undefined;
    const key = shapeKey(read);
    let entry = this.#readOptions.get(key);
    if (entry === undefined) {
      entry = { helper: { name: `_${key.toUpperCase()}_OPTIONS` }, read };
      this.#readOptions.set(key, entry);
    }
    return entry.helper;
  }

  /** `_SEARCH`, the resource's search (`TrigramSearch(...)` or `FullTextSearch(...)`), shared by its lists. */
  search(config: SearchConfig): Helper {
    this.#search = config;
    return { name: "_SEARCH" };
  }

  /**
   * `_load_<name>(session, pk)` (`_load_<name>_summary`, …): the row with everything `read` shows loaded, or 404;
   * it runs `_<NAME>_BY_PK` (`_<NAME>_SUMMARY_BY_PK`, …), its statement.
   */
  loader(read: ReadSchema): Helper {
    this.notFound();
    this.readOptions(read);
    const key = shapeKey(read);
    let entry = this.#loaders.get(key);
    if (entry === undefined) {
      const shown = this.#shown(key);
      entry = { helper: { name: `_load_${shown}` }, statement: `_${shown.toUpperCase()}_BY_PK`, read };
      this.#loaders.set(key, entry);
    }
    return entry.helper;
  }

  /**
   * `_read_<name>(session, pk)` (`_read_<name>_summary`, …): the row of key `pk` as `read` shows it, read as `rows`' columns
   * (no ORM object), or 404; it runs `_<NAME>_ROW_BY_PK`, the select built once.
   */
  rowReader(read: ReadSchema, rows: RowSerializerFn): Helper {
    this.notFound();
    const key = shapeKey(read);
    let entry = this.#rowReaders.get(key);
    if (entry === undefined) {
      const shown = this.#shown(key);
      entry = { helper: { name: `_read_${shown}` }, statement: `_${shown.toUpperCase()}_ROW_BY_PK`, rows };
      this.#rowReaders.set(key, entry);
    }
    return entry.helper;
  }

  /** How a helper of the shape `key` names it: `article` for `read`, `article_summary` for `summary`. */
  #shown(key: string): string {
    return `${this.view.name}${key === READ_REPRESENTATION ? "" : `_${key}`}`;
  }

  render(ctx: RenderCtx): Fragment[] {
    const view = this.view;
    const imports = new ImportCollector().addFrom("fastapi", "APIRouter");
    const context: Record<string, unknown> = {
      doc: docstringText(this.#doc()),
      // A single app's routes are its own under its prefix (routing/routing.ts merges them).
      prefix: pythonString(`${view.project.single_app ? view.appPrefix : ""}${view.routePrefix}`),
      tag: pythonString(view.routePrefix.replace(/^\//, "").replace(/\//g, "-") || view.name),
    };
    if (this.#notFound) {
      imports.addFrom("fastapi", "HTTPException", "status").update(view.pkImports);
      context.not_found = { name: this.#notFound.name, pk: view.pk, pk_annotation: view.pkAnnotation, label: capitalize(view.label), repr: view.config.pk_type === "str" };
    }
    context.read_options = [...this.#readOptions.values()].map(({ helper, read }) => {
      imports.update(read.loaderImports);
      return {
        name: helper.name,
        comment: `Everything ${shows(read, view)} shows, loaded up front: serializing never hits a lazy load.`,
        tuple: `(${read.loaders.join(", ")}${read.loaders.length === 1 ? "," : ""})`,
      };
    });
    if (this.#search) {
      const search = this.#search;
      imports.addFrom(view.model.module, view.model.importName);
      context.search = { name: "_SEARCH", expression: searchExpression(search, view.model.local, view.runtimePackage, imports), comment: `What \`\`?q=\`\` searches, and how: see ${search.strategy === "trigram" ? "indexes.py for its trigram indexes" : "indexes.py for its full-text index"}.` };
    }
    context.loaders = [...this.#loaders.values()].map(({ helper, statement, read }) => {
      imports.addFrom("sqlalchemy.ext.asyncio", "AsyncSession").addFrom("sqlalchemy", "bindparam", "select").addFrom(view.model.module, view.model.importName);
      const options = this.readOptions(read);
      return {
        name: helper.name,
        statement,
        unique: read.joinsCollection,
        variable: view.variable,
        model: view.model.local,
        pk: view.pk,
        pk_annotation: view.pkAnnotation,
        options: options?.name ?? "",
        doc: docstringText(
          `Read ${view.label} *pk* afresh${options ? ` with everything \`\`${shows(read, view)}\`\` shows` : ""}, or raise 404.`,
          "    ",
        ),
      };
    });
    context.row_readers = [...this.#rowReaders.values()].map(({ helper, statement, rows }) => {
      imports
        .addFrom("sqlalchemy", "bindparam")
        .addFrom("sqlalchemy.ext.asyncio", "AsyncSession")
        .addFrom(view.model.module, view.model.importName)
        .addFrom(rows.module.dotted, rows.statement, rows.name)
        .addFrom(rows.schemaModule, rows.schema);
      return {
        name: helper.name,
        statement,
        rows: rows.statement,
        from_row: rows.name,
        schema: rows.schema,
        model: view.model.local,
        pk: view.pk,
        pk_annotation: view.pkAnnotation,
        doc: docstringText(`${capitalize(view.label)} *pk* as \`\`${rows.schema}\`\` shows it, read as columns, or raise 404.`, "    "),
      };
    });
    return [
      new FileFragment({ path: this.path, template: "modules/routes.py.njk", context, imports }),
      ...[...this.#functions, ...this.#handlers].flatMap((handler) =>
        handler.blocks(ctx).map((block) => new SnippetFragment({ path: this.path, slot: "handlers", value: block.code, imports: block.imports })),
      ),
    ];
  }

  #doc(): string {
    const view = this.view;
    const actions = this.#handlers.some((handler) => handler.action);
    const crud = this.#handlers.some((handler) => !handler.action);
    const what = [crud ? `CRUD under \`\`${view.routePrefix}\`\`` : "", actions ? `the ${view.label} actions` : ""].filter(Boolean).join(" and ");
    return `Routes of ${view.labelPlural}${what ? `: ${what}` : ""}.`;
  }
}

/** The shape whose relationships `read` loads: a builder or serializer of the user's gets what the resource's fields show. */
function shapeKey(read: ReadSchema): string {
  return read.schema === undefined ? READ_REPRESENTATION : read.representation;
}

/** What a shape shows, for comments: its schema, or for a function of the user's the resource's read schema, whose relationships it gets loaded. */
function shows(read: ReadSchema, view: ResourceView): string {
  return read.schema?.name ?? `${view.model.name}Read`;
}
