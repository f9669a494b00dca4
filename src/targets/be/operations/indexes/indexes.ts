// `indexes` (project scope): `indexes.py`, the indexes the generated lists rely on, as
// SQLAlchemy `Index` objects, with the PostgreSQL extensions they need: (field, key) for
// each declared order, the key column of each `ref` filter, and each resource's search
// indexes (built by the same runtime objects the queries use, so their expressions match).

import {
  type BuildContext,
  type BuildStore,
  FileFragment,
  type Fragment,
  ImportCollector,
  PROJECT,
  type RenderCtx,
  operation,
  prefixImport,
} from "../../../../codegen/index.js";
import type { ProjectConfig, ResourceConfig } from "../../config/schema.js";
import { ProjectNames } from "../../modules/project-names.js";
import { docstringText, pythonString } from "../../python/literals.js";
import { ListHandler } from "../list/list-handler.js";

/** PostgreSQL's limit on identifier length. */
const MAX_NAME = 63;

interface PlannedIndex {
  /** What it indexes (model and columns): two lists of one model share their indexes. */
  key: string;
  name: string;
  comment: string;
  expression: string;
  /** The PostgreSQL extension it needs (a trigram search's `pg_trgm`). */
  extension?: string;
}

/** The recommended indexes of a project's lists; rendered only when there is one. */
export class Indexes {
  readonly path = "indexes.py";
  readonly #project: ProjectConfig;
  readonly #packagePrefix: string;
  // `usedIn` by store: every app's conftest asks, and the answer plans every list's indexes.
  readonly #used = new WeakMap<BuildStore, boolean>();
  // Each list's indexes, planned once.
  readonly #needs = new WeakMap<ListHandler, ListNeeds>();

  /** Its lists (their order, ref filters, search) are read from the store when it renders. */
  constructor(project: ProjectConfig, packagePrefix: string) {
    this.#project = project;
    this.#packagePrefix = packagePrefix;
  }

  /** Whether the module exists in the build of `store` (some list needs an index); the generated conftest creates them then. */
  usedIn(store: BuildStore): boolean {
    let used = this.#used.get(store);
    if (used === undefined) this.#used.set(store, (used = this.#plan(store, new ImportCollector()).indexes.length > 0));
    return used;
  }

  /** The module's dotted path. */
  get dotted(): string {
    return prefixImport(this.#packagePrefix, "indexes");
  }

  /** The runtime module creating extensions and indexes. */
  get runtime(): string {
    return prefixImport(this.#packagePrefix, "runtime", "indexes");
  }

  render(ctx: RenderCtx): Fragment[] {
    const imports = new ImportCollector().addFrom("sqlalchemy", "Index");
    const { indexes, extensions } = this.#plan(ctx.store, imports);
    if (indexes.length === 0) return [];
    return [
      new FileFragment({
        path: this.path,
        template: "operations/indexes/indexes.py.njk",
        context: {
          doc: docstringText(
            "The indexes the generated lists rely on, and the extensions they need.\n\n" +
              "Create them in a migration (importing this module lets Alembic's autogenerate see\n" +
              "them; create the extensions first), or with ``create_extensions`` and\n" +
              "``create_indexes`` from ``runtime.indexes``.",
          ),
          extensions: `(${extensions.map(pythonString).join(", ")}${extensions.length === 1 ? "," : ""})`,
          indexes,
        },
        imports,
      }),
    ];
  }

  #plan(store: BuildStore, imports: ImportCollector): { indexes: PlannedIndex[]; extensions: string[] } {
    // Two lists of one model share their indexes: the first to plan one names it.
    const planned = new Map<string, PlannedIndex>();
    for (const handler of store.outputsUnder(PROJECT.name, ListHandler)) {
      let needs = this.#needs.get(handler);
      if (!needs) this.#needs.set(handler, (needs = this.#needsOf(handler)));
      for (const index of needs.indexes) if (!planned.has(index.key)) planned.set(index.key, index);
      imports.update(needs.imports);
    }
    // A search no list runs is still run (a searchable resource's `_values`, the values of filters referring to it).
    const names = new ProjectNames(this.#project, this.#packagePrefix, imports);
    for (const app of this.#project.apps) {
      for (const resource of app.config.resources) {
        if (resource.search === undefined || planned.has(searchKey(resource))) continue;
        const index = this.#searchIndex(resource, names, `searches of ${app.prefix}${resource.route_prefix}`);
        planned.set(index.key, index);
      }
    }
    const indexes = [...planned.values()];
    const extensions = new Set(indexes.flatMap((index) => (index.extension === undefined ? [] : [index.extension])));
    return { indexes, extensions: [...extensions].sort() };
  }

  /** The index of `resource`'s search; `served` says what it serves (`GET /articles?q=…`). */
  #searchIndex(resource: ResourceConfig, names: ProjectNames, served: string): PlannedIndex {
    const search = resource.search!;
    const name = indexName(`ix_${names.id(resource, "_")}_search`);
    const trigram = search.strategy === "trigram";
    return {
      key: searchKey(resource),
      name,
      comment: `${served} (${trigram ? "a trigram index per field" : "full-text"})`,
      expression: `*${names.search(resource, names.model(resource))}.indexes(${pythonString(name)})`,
      extension: trigram ? "pg_trgm" : undefined,
    };
  }

  /** The indexes one list relies on, with the imports their expressions use. */
  #needsOf(handler: ListHandler): ListNeeds {
    // Imported only when an index uses it: a list with nothing to index imports nothing.
    const imports = new ImportCollector();
    const names = new ProjectNames(this.#project, this.#packagePrefix, imports);
    const indexes: PlannedIndex[] = [];
    const resource = handler.view.config;
    const model = () => names.model(resource);
    const base = names.id(resource, "_");
    const route = `${handler.method} ${resource.route_prefix}${handler.path}`;
    for (const field of handler.query.order?.fields ?? []) {
      if (field.name === resource.pk) continue;
      const name = indexName(`ix_${base}_${field.name}_${resource.pk}`);
      const pages = handler.query.pagination.mode === "keyset" ? ", and its keyset pages" : "";
      indexes.push({
        key: `${resource.model}(${field.name}, ${resource.pk})`,
        name,
        comment: `${route}?order_by=${field.name} (either direction)${pages}`,
        expression: `Index(${pythonString(name)}, ${model()}.${field.name}, ${model()}.${resource.pk})`,
      });
    }
    for (const field of handler.query.filters ?? []) {
      if (field.kind !== "ref") continue;
      const name = indexName(`ix_${base}_${field.name}`);
      indexes.push({ key: `${resource.model}(${field.name})`, name, comment: `${route}?${field.name}=… (a key of ${field.refResource})`, expression: `Index(${pythonString(name)}, ${model()}.${field.name})` });
    }
    if (resource.search !== undefined) indexes.push(this.#searchIndex(resource, names, `${route}?q=…`));
    return { indexes, imports };
  }
}

/** What names a resource's search index among the planned ones. */
function searchKey(resource: ResourceConfig): string {
  return `${resource.model} search`;
}

/** What one list needs of `indexes.py`. */
interface ListNeeds {
  indexes: readonly PlannedIndex[];
  imports: ImportCollector;
}

/** `name`, shortened to PostgreSQL's 63 characters with a stable hash when longer. */
function indexName(name: string): string {
  if (name.length <= MAX_NAME) return name;
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const suffix = hash.toString(16).padStart(8, "0");
  return `${name.slice(0, MAX_NAME - suffix.length - 1)}_${suffix}`;
}

@operation("indexes", { scope: "project" })
export class IndexesOperation {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return [new Indexes(ctx.config, ctx.packagePrefix)];
  }
}
