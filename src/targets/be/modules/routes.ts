// `{module}/routes/{name}.py`: the router of one resource, its handlers, and the helpers
// handlers share. Produced once per resource by `resource_files`; a helper is written only
// when a handler asked for it (`notFound()`, `loader()`), so each is defined exactly once.

import { FileFragment, type Fragment, ImportCollector, type RenderCtx, SnippetFragment, renderTemplate } from "../../../codegen/index.js";
import { docstringText, pythonString } from "../python/literals.js";
import type { ResourceView } from "../resource.js";
import type { RouteHandler } from "./handler.js";
import type { ReadSchema } from "./read-shape.js";
import { capitalize } from "./read-shape.js";

/** A module-level helper function a handler calls. */
export interface Helper {
  /** The function's name in the routes module. */
  name: string;
}

/** The routes module of one resource. */
export class RoutesModule {
  readonly path: string;
  readonly dotted: string;
  readonly view: ResourceView;
  readonly #handlers: RouteHandler[] = [];
  #notFound: Helper | undefined;
  #readOptions: { helper: Helper; read: ReadSchema } | undefined;
  #loader: { helper: Helper; read: ReadSchema } | undefined;

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

  get handlers(): readonly RouteHandler[] {
    return this.#handlers;
  }

  /** `_not_found(pk) -> HTTPException`, the 404 of a missing key. */
  notFound(): Helper {
    this.#notFound ??= { name: "_not_found" };
    return this.#notFound;
  }

  /** `_READ_OPTIONS`, the loader options of everything `read` shows; undefined when it shows no relationship. */
  readOptions(read: ReadSchema): Helper | undefined {
    if (read.loaders.length === 0) return undefined;
    this.#readOptions ??= { helper: { name: "_READ_OPTIONS" }, read };
    return this.#readOptions.helper;
  }

  /** `_load_<name>(session, pk)`: the row with everything `read` shows loaded, or 404. */
  loader(read: ReadSchema): Helper {
    this.notFound();
    this.readOptions(read);
    this.#loader ??= { helper: { name: `_load_${this.view.name}` }, read };
    return this.#loader.helper;
  }

  render(ctx: RenderCtx): Fragment[] {
    const view = this.view;
    const imports = new ImportCollector().addFrom("fastapi", "APIRouter");
    const context: Record<string, unknown> = {
      doc: docstringText(this.#doc()),
      prefix: pythonString(view.routePrefix),
      tag: pythonString(view.routePrefix.replace(/^\//, "").replace(/\//g, "-") || view.name),
    };
    if (this.#notFound) {
      imports.addFrom("fastapi", "HTTPException", "status").update(view.pkImports);
      context.not_found = { name: this.#notFound.name, pk: view.pk, pk_annotation: view.pkAnnotation, label: capitalize(view.label), repr: view.config.pk_type === "str" };
    }
    if (this.#readOptions) {
      const { helper, read } = this.#readOptions;
      imports.update(read.loaderImports);
      context.read_options = {
        name: helper.name,
        comment: `Everything ${read.schema.name} shows, loaded up front: serializing never hits a lazy load.`,
        tuple: `(${read.loaders.join(", ")}${read.loaders.length === 1 ? "," : ""})`,
      };
    }
    if (this.#loader) {
      const { helper, read } = this.#loader;
      imports.addFrom("sqlalchemy", "select").addFrom("sqlalchemy.ext.asyncio", "AsyncSession").addFrom(view.model.module, view.model.importName);
      const options = this.readOptions(read);
      context.loader = {
        name: helper.name,
        variable: view.variable,
        model: view.model.local,
        pk: view.pk,
        pk_annotation: view.pkAnnotation,
        options: options ? `.options(*${options.name})` : "",
        doc: docstringText(`Read ${view.label} *pk* afresh${options ? ` with everything \`\`${read.schema.name}\`\` shows` : ""}, or raise 404.`, "    "),
      };
    }
    return [
      new FileFragment({ path: this.path, template: "modules/routes.py.njk", context, imports }),
      ...this.#handlers.map(
        (handler) =>
          new SnippetFragment({
            path: this.path,
            slot: "handlers",
            template: "modules/handler.py.njk",
            context: {
              decorator: handler.decorator,
              signature: handler.signature,
              doc: docstringText(handler.summary, "    "),
              body: renderTemplate(ctx.env, handler.body.template, { ...handler.body.context, handler }).replace(/\s+$/, ""),
            },
            imports: handler.allImports,
          }),
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
