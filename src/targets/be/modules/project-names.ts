// Python names in project-wide generated modules (`discovery.py`, `indexes.py`): model
// classes (spelled with their module when two share a class name or one is named like a
// generated import, `GENERATED_NAMES`), resource ids (the name, `module.name` when two apps
// share it), each database's session factory, and the search object of a resource,
// written as its lists write it.

import { type ImportCollector, Name, prefixImport } from "../../../codegen/index.js";
import type { ProjectConfig, ResourceConfig, SearchConfig } from "../config/schema.js";
import { pythonString } from "../python/literals.js";
import { GENERATED_NAMES, sessionModulePath } from "../resource.js";

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
  /** Class name → the dotted models of that class name; app count by resource name. Computed once: a project may have thousands of resources. */
  readonly #models = new Map<string, Set<string>>();
  readonly #appsByName = new Map<string, number>();

  constructor(project: ProjectConfig, packagePrefix: string, imports: ImportCollector) {
    this.#project = project;
    this.#packagePrefix = packagePrefix;
    this.#imports = imports;
    for (const app of project.apps) {
      for (const name of new Set(app.config.resources.map((resource) => resource.name))) this.#appsByName.set(name, (this.#appsByName.get(name) ?? 0) + 1);
      for (const resource of app.config.resources) {
        const pascal = Name.fromDotted(resource.model)[1].pascal;
        this.#models.set(pascal, (this.#models.get(pascal) ?? new Set()).add(resource.model));
      }
    }
  }

  /**
   * The model class as the module names it: `Article`, or `shop.models.Article` when another
   * model shares the class name or the module imports a name of its own spelled the same.
   */
  model(resource: ResourceConfig): string {
    const [module, name] = Name.fromDotted(resource.model);
    const clash = (this.#models.get(name.pascal)?.size ?? 0) > 1 || GENERATED_NAMES.has(name.pascal);
    if (clash) {
      this.#imports.add(module);
      return `${module}.${name.pascal}`;
    }
    this.#imports.addFrom(module, name.pascal);
    return name.pascal;
  }

  /** The resource's project-wide id: its name, or `module.name` when two apps have one of that name. */
  id(resource: ResourceConfig, separator = "."): string {
    if ((this.#appsByName.get(resource.name) ?? 0) < 2) return resource.name;
    const app = this.#project.apps.find((candidate) => candidate.config.resources.includes(resource))!;
    return `${app.config.module}${separator}${resource.name}`;
  }

  /** `get_sessionmaker` of the resource's database (aliased when the project has several). */
  sessions(resource: ResourceConfig): string {
    const path = sessionModulePath(this.#project, resource.db_key);
    const module = prefixImport(this.#packagePrefix, ...path);
    if (this.#project.databases.length === 1) {
      this.#imports.addFrom(module, "get_sessionmaker");
      return "get_sessionmaker";
    }
    const alias = `${path[path.length - 1].replace(/_session$/, "")}_sessionmaker`;
    this.#imports.addFrom(module, `get_sessionmaker as ${alias}`);
    return alias;
  }

  /** The resource's search object. */
  search(resource: ResourceConfig, model: string): string {
    return searchExpression(resource.search!, model, prefixImport(this.#packagePrefix, "runtime"), this.#imports);
  }
}
