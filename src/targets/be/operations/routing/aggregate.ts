// An aggregating `routes/__init__.py`: one router holding the routes of some routers (an
// app's resources: their routes carry their full path) and including others (apps, each under
// its prefix; the project's own routers), in config order. One output per file, made by the
// one operation that aggregates there.

import { type BuildStore, FileFragment, type Fragment, ImportCollector, type RenderCtx } from "../../../../codegen/index.js";
import { docstringText, pythonString } from "../../python/literals.js";

/** A router imported from another module. */
export interface RouterImport {
  /** Dotted module holding its `router`. */
  module: string;
  /** Name the router is imported as. */
  alias: string;
}

/** One included router. */
export interface RouterMount extends RouterImport {
  /** Prefix passed to `include_router`, "" for none. */
  prefix: string;
}

/** A project-level router included after the others when it exists: filter discovery, the OPA policy's lifespan. */
export interface ProjectRouterSource {
  /** Whether the module exists in the build of `store`; routers include it only then. */
  usedIn(store: BuildStore): boolean;
  /** Dotted module holding its `router`. */
  readonly dotted: string;
  /** Name the router is imported as. */
  readonly alias: string;
}

export class AggregateRouter {
  /** The aggregating file, e.g. `content/routes/__init__.py` or `routes/__init__.py`. */
  readonly path: string;
  readonly doc: string;
  /** Routers whose routes become the aggregating router's own (a level less to match per request). */
  readonly #merged: readonly RouterImport[];
  /** Prefix the project's own routers are included at, "" for none. */
  readonly #projectPrefix: string;
  readonly #mounts: readonly RouterMount[];
  /** The project's own routers (filter discovery, the OPA policy), included here after the others when they exist. */
  readonly #projectRouters: readonly ProjectRouterSource[];

  constructor(options: {
    path: string;
    doc: string;
    merged?: readonly RouterImport[];
    mounts?: readonly RouterMount[];
    projectRouters?: readonly ProjectRouterSource[];
    projectPrefix?: string;
  }) {
    this.path = options.path;
    this.doc = options.doc;
    this.#merged = options.merged ?? [];
    this.#mounts = options.mounts ?? [];
    this.#projectPrefix = options.projectPrefix ?? "";
    this.#projectRouters = options.projectRouters ?? [];
  }

  /** The included routers of the build of `store`, in order. */
  #mountsIn(store: BuildStore): readonly RouterMount[] {
    const own = this.#projectRouters.filter((source) => source.usedIn(store)).map((source) => ({ module: source.dotted, alias: source.alias, prefix: this.#projectPrefix }));
    return [...this.#mounts, ...own];
  }

  render(ctx: RenderCtx): Fragment[] {
    const imports = new ImportCollector().addFrom("fastapi", "APIRouter");
    const mounts = this.#mountsIn(ctx.store);
    for (const mount of [...this.#merged, ...mounts]) imports.addFrom(mount.module, `router as ${mount.alias}`);
    return [
      new FileFragment({
        path: this.path,
        template: "operations/routing/aggregate.py.njk",
        context: {
          doc: docstringText(this.doc),
          merged: this.#merged.map((mount) => mount.alias),
          mounts: mounts.map((mount) => ({ alias: mount.alias, prefix: mount.prefix === "" ? "" : pythonString(mount.prefix) })),
        },
        imports,
      }),
    ];
  }
}
