// Python names in project-wide generated modules (`discovery.py`, `indexes.py`): model
// classes (spelled with their module when two share a class name or one is named like a
// generated import, `GENERATED_NAMES`), resource ids (the name, `module.name` when two apps
// share it), each database's session factory, and the search object of a resource,
// written as its lists write it.

import { type ImportCollector, Name, prefixImport } from "../../../codegen/index.js";
import type { ProjectConfig, ResourceConfig, SearchConfig } from "../config/schema.js";
import { perProject } from "../per-project.js";
import { pythonString } from "../python/literals.js";
import { GENERATED_NAMES, appsPerResourceName, sessionModulePath } from "../resource.js";

/** `TrigramSearch(Article.title)` or `FullTextSearch(..., language="english")`: a resource's search object. */
export function searchExpression(search: SearchConfig, model: string, runtimePackage: string, imports: ImportCollector): string {
  const cls = search.strategy === "trigram" ? "TrigramSearch" : "FullTextSearch";
  imports.addFrom(`${runtimePackage}.search`, cls);
  const args = search.fields.map((field) => `${model}.${field}`);
  if (search.strategy === "full_text") {
    if (search.language !== "simple") args.push(`language=${pythonString(search.language)}`);
    if (search.vector_column) args.push(`vector=${model}.${search.vector_column}`);
  }
  return `${cls}(${args.join(", ")})`;
}

/** Names of a project's models, resources and sessions in one module, with its imports. */
export class ProjectNames {
  readonly #project: ProjectConfig;
  readonly #packagePrefix: string;
  readonly #imports: ImportCollector;

  /** Cheap to make: what it needs of every resource is computed once per project (a project may have thousands). */
  constructor(project: ProjectConfig, packagePrefix: string, imports: ImportCollector) {
    this.#project = project;
    this.#packagePrefix = packagePrefix;
    this.#imports = imports;
  }

  /**
   * The model class as the module names it: `Article`, or `shop.models.Article` when another
   * model shares the class name or the module imports a name of its own spelled the same.
   */
  model(resource: ResourceConfig): string {
    const [module, name] = Name.fromDotted(resource.model);
    const clash = (modelsByClassName(this.#project).get(name.pascal)?.size ?? 0) > 1 || GENERATED_NAMES.has(name.pascal);
    if (clash) {
      this.#imports.add(module);
      return `${module}.${name.pascal}`;
    }
    this.#imports.addFrom(module, name.pascal);
    return name.pascal;
  }

  /** The resource's project-wide id: its name, or `module.name` when two apps have one of that name. */
  id(resource: ResourceConfig, separator = "."): string {
    if ((appsPerResourceName(this.#project).get(resource.name) ?? 0) < 2) return resource.name;
    const app = this.#project.apps.find((candidate) => candidate.config.resources.includes(resource))!;
    return `${app.config.module}${separator}${resource.name}`;
  }

  /**
   * The session factory the project-wide reads (discovery) use on the resource's database:
   * `get_read_sessionmaker`, as the routes that only read (aliased when the project has
   * several databases).
   */
  readSessions(resource: ResourceConfig): string {
    const path = sessionModulePath(this.#project, resource.db_key);
    const module = prefixImport(this.#packagePrefix, ...path);
    if (this.#project.databases.length === 1) {
      this.#imports.addFrom(module, "get_read_sessionmaker");
      return "get_read_sessionmaker";
    }
    const alias = `${path[path.length - 1].replace(/_session$/, "")}_read_sessionmaker`;
    this.#imports.addFrom(module, `get_read_sessionmaker as ${alias}`);
    return alias;
  }

  /** The resource's search object. */
  search(resource: ResourceConfig, model: string): string {
    return searchExpression(resource.search!, model, prefixImport(this.#packagePrefix, "runtime"), this.#imports);
  }
}

/** The dotted models of each model class name, once per project: every name asks. */
const modelsByClassName = perProject((project): ReadonlyMap<string, ReadonlySet<string>> => {
  const models = new Map<string, Set<string>>();
  for (const app of project.apps) {
    for (const resource of app.config.resources) {
      const pascal = Name.fromDotted(resource.model)[1].pascal;
      models.set(pascal, (models.get(pascal) ?? new Set()).add(resource.model));
    }
  }
  return models;
});
