// An aggregating `routes/__init__.py`: one router that includes other routers, each imported
// under an alias and included (with a prefix or without), in config order. One output per
// file, made by the one operation that aggregates there.

import { FileFragment, type Fragment, ImportCollector } from "../../../../codegen/index.js";
import { docstringText, pythonString } from "../../python/literals.js";

/** One included router. */
export interface RouterMount {
  /** Dotted module holding the mounted `router`. */
  module: string;
  /** Name the router is imported as. */
  alias: string;
  /** Prefix passed to `include_router`, "" for none. */
  prefix: string;
}

/** A project-level router included after the others when it exists: filter discovery, the OPA policy's lifespan. */
export interface ProjectRouterSource {
  /** Whether the module exists; routers include it only then. */
  readonly used: boolean;
  /** Dotted module holding its `router`. */
  readonly dotted: string;
  /** Name the router is imported as. */
  readonly alias: string;
}

export class AggregateRouter {
  /** The aggregating file, e.g. `content/routes/__init__.py` or `routes/__init__.py`. */
  readonly path: string;
  readonly doc: string;
  /** Prefix of the aggregating router itself, "" for none. */
  readonly routerPrefix: string;
  readonly #mounts: readonly RouterMount[];
  /** The project's own routers (filter discovery, the OPA policy), included here after the others when they exist. */
  readonly #projectRouters: readonly ProjectRouterSource[];

  constructor(options: { path: string; doc: string; routerPrefix?: string; mounts: readonly RouterMount[]; projectRouters?: readonly ProjectRouterSource[] }) {
    this.path = options.path;
    this.doc = options.doc;
    this.routerPrefix = options.routerPrefix ?? "";
    this.#mounts = options.mounts;
    this.#projectRouters = options.projectRouters ?? [];
  }

  /** The included routers, in order. */
  get mounts(): readonly RouterMount[] {
    const own = this.#projectRouters.filter((source) => source.used).map((source) => ({ module: source.dotted, alias: source.alias, prefix: "" }));
    return [...this.#mounts, ...own];
  }

  render(): Fragment[] {
    const imports = new ImportCollector().addFrom("fastapi", "APIRouter");
    const mounts = this.mounts;
    for (const mount of mounts) imports.addFrom(mount.module, `router as ${mount.alias}`);
    return [
      new FileFragment({
        path: this.path,
        template: "operations/routing/aggregate.py.njk",
        context: {
          doc: docstringText(this.doc),
          router_prefix: this.routerPrefix === "" ? "" : pythonString(this.routerPrefix),
          mounts: mounts.map((mount) => ({ alias: mount.alias, prefix: mount.prefix === "" ? "" : pythonString(mount.prefix) })),
        },
        imports,
      }),
    ];
  }
}
