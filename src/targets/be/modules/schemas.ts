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
  readonly fields: readonly Field[];
  /** Fields that may be omitted but not sent as null (update bodies). */
  readonly rejectNull: readonly string[];
  readonly imports: ImportCollector;

  constructor(options: { module: SchemaModule; name: string; doc: string; fields: readonly Field[]; rejectNull?: readonly string[]; imports: ImportCollector }) {
    this.module = options.module;
    this.name = options.name;
    this.doc = options.doc;
    this.fields = options.fields;
    this.rejectNull = options.rejectNull ?? [];
    this.imports = options.imports;
    if (this.fields.some((field) => field.description !== undefined || field.default?.startsWith("Field(")))
      this.imports.addFrom("pydantic", "Field");
    if (this.rejectNull.length > 0) this.imports.addFrom("pydantic", "field_validator");
  }
}

/** The schemas module of one resource. */
export class SchemaModule {
  readonly path: string;
  /** Dotted import path. */
  readonly dotted: string;
  readonly #view: ResourceView;
  readonly #classes: SchemaClass[] = [];

  constructor(view: ResourceView) {
    this.#view = view;
    this.path = view.schemaFile;
    this.dotted = view.schemaModule;
  }

  /** Adds a class (after those added earlier) and returns it. */
  add(schema: SchemaClass): SchemaClass {
    this.#classes.push(schema);
    return schema;
  }

  get classes(): readonly SchemaClass[] {
    return this.#classes;
  }

  /** The module's fragments: none while it has no class. */
  render(): Fragment[] {
    if (this.#classes.length === 0) return [];
    const params = this.#view.config.operations.some((entry) => entry.type === "action" && Array.isArray(entry.params) && entry.params.length > 0);
    const doc = `Request and response schemas of ${this.#view.labelPlural}${params ? ", with the params of their actions" : ""}.`;
    return [
      new FileFragment({ path: this.path, template: "modules/schemas.py.njk", context: { doc: docstringText(doc) } }),
      ...this.#classes.map(
        (schema) =>
          new SnippetFragment({
            path: this.path,
            slot: "classes",
            template: "modules/schema_class.py.njk",
            context: {
              name: schema.name,
              doc: docstringText(schema.doc, "    "),
              lines: schema.fields.map((field) => field.line),
              reject_null: schema.rejectNull.map(pythonString).join(", "),
            },
            imports: new ImportCollector().addFrom("pydantic", "BaseModel").update(schema.imports),
          }),
      ),
    ];
  }
}
