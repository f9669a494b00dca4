// An aggregating `routes/__init__.py`: one router that includes other routers, each imported
// under an alias and included (with a prefix or without), in config order. One output per
// file, made by the one operation that aggregates there.

import { FileFragment, type Fragment, ImportCollector } from "../../../../codegen/index.js";
import { docstringText, pythonString } from "../../python/literals.js";
import type { Discovery } from "../discovery/discovery.js";

/** One included router. */
export interface RouterMount {
  /** Dotted module holding the mounted `router`. */
  module: string;
  /** Name the router is imported as. */
  alias: string;
  /** Prefix passed to `include_router`, "" for none. */
  prefix: string;
}

export class AggregateRouter {
  /** The aggregating file, e.g. `content/routes/__init__.py` or `routes/__init__.py`. */
  readonly path: string;
  readonly doc: string;
  /** Prefix of the aggregating router itself, "" for none. */
  readonly routerPrefix: string;
  readonly #mounts: readonly RouterMount[];
  /** The project's filter discovery, included here (after the other routers) when some list filters. */
  readonly #discovery: Discovery | undefined;

  constructor(options: { path: string; doc: string; routerPrefix?: string; mounts: readonly RouterMount[]; discovery?: Discovery }) {
    this.path = options.path;
    this.doc = options.doc;
    this.routerPrefix = options.routerPrefix ?? "";
    this.#mounts = options.mounts;
    this.#discovery = options.discovery;
  }

  /** The included routers, in order. */
  get mounts(): readonly RouterMount[] {
    const discovery = this.#discovery?.used ? [{ module: this.#discovery.dotted, alias: "discovery_router", prefix: "" }] : [];
    return [...this.#mounts, ...discovery];
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
