// `{module}/schemas/{name}.py`: the Pydantic classes of one resource. The `resource_files`
// operation produces the module once; operations add their classes to it (the read shape
// on first use, create/update bodies, action params). An empty module writes no file.

import { FileFragment, type Fragment, ImportCollector, SnippetFragment } from "../../../codegen/index.js";
import { docstringText, pythonString } from "../python/literals.js";
import type { ResourceView } from "../resource.js";

/** One attribute of a generated Pydantic class. */
export class Field {
  readonly name: string;
  /** Python annotation, e.g. `uuid.UUID`, `str | None`, `list[ArticleReadTagsNested]`. */
  readonly annotation: string;
  /** Python expression of the default, or undefined when the field is required. */
  readonly default: string | undefined;
  /** Text for OpenAPI, as the user wrote it. */
  readonly description: string | undefined;

  constructor(options: { name: string; annotation: string; default?: string; description?: string }) {
    this.name = options.name;
    this.annotation = options.annotation;
    this.default = options.default;
    this.description = options.description;
  }

  /** `name: annotation = default`, the description folded into `Field(...)`. */
  get line(): string {
    const head = `${this.name}: ${this.annotation}`;
    if (this.description === undefined) return this.default === undefined ? head : `${head} = ${this.default}`;
    const description = `description=${pythonString(this.description)}`;
    if (this.default === undefined) return `${head} = Field(${description})`;
    if (this.default.startsWith("Field(")) return `${head} = ${this.default.slice(0, -1)}, ${description})`;
    return `${head} = Field(default=${this.default}, ${description})`;
  }
}

/** A Pydantic model class. */
export class SchemaClass {
  readonly module: SchemaModule;
  readonly name: string;
  /** Docstring text (escaped when rendered). */
  readonly doc: string;
  /** Fields that may be omitted but not sent as null (update bodies). */
  readonly rejectNull: readonly string[];
  /** Whether unknown keys are an error (`model_config = ConfigDict(extra="forbid")`). */
  readonly forbidExtra: boolean;
  readonly #fields: readonly Field[] | (() => readonly Field[]);
  readonly #imports: ImportCollector | (() => ImportCollector);

  /**
   * `fields` and `imports` may be functions: a class whose fields other operations still
   * decide (a list's query parameters) is added early and read when the module renders.
   */
  constructor(options: {
    module: SchemaModule;
    name: string;
    doc: string;
    fields: readonly Field[] | (() => readonly Field[]);
    rejectNull?: readonly string[];
    imports: ImportCollector | (() => ImportCollector);
    forbidExtra?: boolean;
  }) {
    this.module = options.module;
    this.name = options.name;
    this.doc = options.doc;
    this.#fields = options.fields;
    this.rejectNull = options.rejectNull ?? [];
    this.#imports = options.imports;
    this.forbidExtra = options.forbidExtra ?? false;
  }

  get fields(): readonly Field[] {
    return typeof this.#fields === "function" ? this.#fields() : this.#fields;
  }

  /** What the class needs imported, `BaseModel` included. */
  get imports(): ImportCollector {
    const fields = this.fields;
    const imports = new ImportCollector().addFrom("pydantic", "BaseModel").update(typeof this.#imports === "function" ? this.#imports() : this.#imports);
    if (fields.some((field) => field.description !== undefined || field.default?.startsWith("Field("))) imports.addFrom("pydantic", "Field");
    if (this.rejectNull.length > 0) imports.addFrom("pydantic", "field_validator");
    if (this.forbidExtra) imports.addFrom("pydantic", "ConfigDict");
    return imports;
  }
}

/** A module-level type alias: `ArticleFilter = Annotated[...]`, with a comment above it. */
export class TypeAlias {
  readonly module: SchemaModule;
  readonly name: string;
  readonly comment: string;
  /** The Python expression aliased. */
  readonly expression: string;
  readonly imports: ImportCollector;

  constructor(options: { module: SchemaModule; name: string; comment: string; expression: string; imports: ImportCollector }) {
    this.module = options.module;
    this.name = options.name;
    this.comment = options.comment;
    this.expression = options.expression;
    this.imports = options.imports;
  }
}

/** What a schemas module holds, in definition order. */
export type SchemaItem = SchemaClass | TypeAlias;

/** The schemas module of one resource. */
export class SchemaModule {
  readonly path: string;
  /** Dotted import path. */
  readonly dotted: string;
  readonly #view: ResourceView;
  readonly #classes: SchemaItem[] = [];

  constructor(view: ResourceView) {
    this.#view = view;
    this.path = view.schemaFile;
    this.dotted = view.schemaModule;
  }

  /** Adds a class or an alias (after those added earlier) and returns it. */
  add<T extends SchemaItem>(item: T): T {
    this.#classes.push(item);
    return item;
  }

  get classes(): readonly SchemaItem[] {
    return this.#classes;
  }

  /** The module's fragments: none while it has no class. */
  render(): Fragment[] {
    if (this.#classes.length === 0) return [];
    const params = this.#view.config.operations.some((entry) => entry.type === "action" && Array.isArray(entry.params) && entry.params.length > 0);
    const doc = `Request and response schemas of ${this.#view.labelPlural}${params ? ", with the params of their actions" : ""}.`;
    return [
      new FileFragment({ path: this.path, template: "modules/schemas.py.njk", context: { doc: docstringText(doc) } }),
      ...this.#classes.map((item) =>
        item instanceof TypeAlias
          ? new SnippetFragment({ path: this.path, slot: "classes", value: `# ${item.comment}\n${item.name} = ${item.expression}`, imports: item.imports })
          : new SnippetFragment({
              path: this.path,
              slot: "classes",
              template: "modules/schema_class.py.njk",
              context: {
                name: item.name,
                doc: docstringText(item.doc, "    "),
                forbid_extra: item.forbidExtra,
                lines: item.fields.map((field) => field.line),
                reject_null: item.rejectNull.map(pythonString).join(", "),
              },
              imports: item.imports,
            }),
      ),
    ];
  }
}
