// `{module}/schemas/{name}.py`: the Pydantic classes of one resource. The `resource_files`
// operation produces the module once; operations add their classes to it (the read shape
// on first use, create/update bodies, action params). An empty module writes no file.

import { FileFragment, type Fragment, ImportCollector, SnippetFragment } from "../../../codegen/index.js";
import { docstringText, keywordString, pythonString } from "../python/literals.js";
import type { ResourceView } from "../resource.js";

/** Attributes of Pydantic's `BaseModel`: a field named like one would shadow it. */
const BASE_MODEL_NAMES: ReadonlySet<string> = new Set([
  "construct", "copy", "dict", "from_orm", "json", "parse_file", "parse_obj", "parse_raw", "schema", "schema_json", "update_forward_refs", "validate",
]);

/**
 * The Python attribute of a field called `name` in requests and responses: the name
 * itself, or — when it would shadow a `BaseModel` attribute or sit in Pydantic's `model_`
 * namespace — the name with `_` appended (more while another field has that name). The
 * field then keeps `name` as its alias, so clients and the database see `name`.
 * @example pydanticAttribute("copy", ["copy", "title"]) // "copy_"
 */
export function pydanticAttribute(name: string, siblings: readonly string[]): string {
  if (!BASE_MODEL_NAMES.has(name) && !name.startsWith("model_")) return name;
  let attribute = `${name}_`;
  while (siblings.includes(attribute)) attribute += "_";
  return attribute;
}

/** One attribute of a generated Pydantic class. */
export class Field {
  /** The name clients and the model know the field by. */
  readonly name: string;
  /** The Python attribute of the generated class (see `pydanticAttribute`). */
  readonly attribute: string;
  /** Python annotation, e.g. `uuid.UUID`, `str | None`, `list[ArticleReadTagsNested]`. */
  readonly annotation: string;
  /** Python expression of the default, or undefined when the field is required. */
  readonly default: string | undefined;
  /** Text for OpenAPI, as the user wrote it. */
  readonly description: string | undefined;
  /** The collection key of the resource whose key this field holds (`x-references` in OpenAPI). */
  readonly references: string | undefined;

  constructor(options: { name: string; attribute?: string; annotation: string; default?: string; description?: string; references?: string }) {
    this.name = options.name;
    this.references = options.references;
    this.attribute = options.attribute ?? options.name;
    this.annotation = options.annotation;
    this.default = options.default;
    this.description = options.description;
  }

  /** Whether the attribute differs from the name (the class then validates by either). */
  get aliased(): boolean {
    return this.attribute !== this.name;
  }

  /** `attribute: annotation = default`, the alias and description folded into `Field(...)`. */
  get line(): string {
    const head = `${this.attribute}: ${this.annotation}`;
    const extra: string[] = [];
    if (this.aliased) extra.push(`alias=${pythonString(this.name)}`);
    // A class attribute's `Field(...)` arguments sit at 8 columns once ruff breaks them.
    if (this.description !== undefined) extra.push(keywordString("description", this.description, 8));
    if (this.references !== undefined) extra.push(`json_schema_extra={"x-references": ${pythonString(this.references)}}`);
    if (extra.length === 0) return this.default === undefined ? head : `${head} = ${this.default}`;
    if (this.default === undefined) return `${head} = Field(${extra.join(", ")})`;
    if (this.default.startsWith("Field(")) return `${head} = ${this.default.slice(0, -1)}, ${extra.join(", ")})`;
    return `${head} = Field(default=${this.default}, ${extra.join(", ")})`;
  }
}

/** A Pydantic model class. */
export class SchemaClass {
  readonly module: SchemaModule;
  readonly name: string;
  /** Docstring text (escaped when rendered). */
  readonly doc: string;
  /** The key field, written as `x-pk` in OpenAPI for clients (read schemas). */
  readonly pk: string | undefined;
  /** Whether unknown keys are an error (`extra="forbid"`: a list's query parameters). */
  readonly forbidExtra: boolean;
  readonly #fields: readonly Field[] | (() => readonly Field[]);
  readonly #imports: ImportCollector;

  /**
   * `fields` may be a function: a class whose fields other operations still decide (a
   * list's query parameters) is added early and read when the module renders. `imports` is
   * read after the fields, so that function may still add to it.
   */
  constructor(options: {
    module: SchemaModule;
    name: string;
    doc: string;
    fields: readonly Field[] | (() => readonly Field[]);
    pk?: string;
    imports: ImportCollector;
    forbidExtra?: boolean;
  }) {
    this.module = options.module;
    this.name = options.name;
    this.doc = options.doc;
    this.#fields = options.fields;
    this.pk = options.pk;
    this.#imports = options.imports;
    this.forbidExtra = options.forbidExtra ?? false;
  }

  get fields(): readonly Field[] {
    return typeof this.#fields === "function" ? this.#fields() : this.#fields;
  }

  /** What the class needs imported, `BaseModel` included, from fields read first (a function of fields may still add to the class's imports). */
  #importsOf(fields: readonly Field[], modelConfig: string | undefined): ImportCollector {
    const imports = new ImportCollector().addFrom("pydantic", "BaseModel").update(this.#imports);
    if (fields.some((field) => field.description !== undefined || field.aliased || field.references !== undefined || field.default?.startsWith("Field("))) {
      imports.addFrom("pydantic", "Field");
    }
    if (modelConfig !== undefined) imports.addFrom("pydantic", "ConfigDict");
    return imports;
  }

  /** The class in the schemas module at `path`; its fields are read once (a list's query parameters are derived when read). */
  snippet(path: string): SnippetFragment {
    const fields = this.fields;
    const modelConfig = this.modelConfig;
    return new SnippetFragment({
      path,
      slot: "classes",
      template: "modules/schema_class.py.njk",
      context: { name: this.name, doc: docstringText(this.doc, "    "), config: modelConfig ?? "", lines: fields.map((field) => field.line) },
      imports: this.#importsOf(fields, modelConfig),
    });
  }

  /** The class's `model_config = ConfigDict(...)` line, or undefined when it needs none. */
  get modelConfig(): string | undefined {
    const options = [
      ...(this.forbidExtra ? ['extra="forbid"'] : []),
      ...(this.pk !== undefined ? [`json_schema_extra={"x-pk": ${pythonString(this.pk)}}`] : []),
    ];
    return options.length === 0 ? undefined : `model_config = ConfigDict(${options.join(", ")})`;
  }

  /** Whether a field's attribute differs from its name: the class is built and dumped by alias then. */
  get aliased(): boolean {
    return this.fields.some((field) => field.aliased);
  }

  /** The attribute of the field called `name`. */
  attributeOf(name: string): string {
    return this.fields.find((field) => field.name === name)?.attribute ?? name;
  }
}

/** The Field of `name` for a class whose fields are called `names`. */
export function fieldNamed(name: string, names: readonly string[], options: { annotation: string; default?: string; description?: string; references?: string }): Field {
  return new Field({ name, attribute: pydanticAttribute(name, names), ...options });
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
  readonly #alsoHolds = new Set<string>();

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

  /** Augmentation point: the module's docstring says it holds `what` too (an action: "the params of their actions"). */
  alsoHolds(what: string): void {
    this.#alsoHolds.add(what);
  }

  get classes(): readonly SchemaItem[] {
    return this.#classes;
  }

  /** The module's fragments: none while it has no class. */
  render(): Fragment[] {
    if (this.#classes.length === 0) return [];
    const also = [...this.#alsoHolds];
    const doc = `Request and response schemas of ${this.#view.labelPlural}${also.length > 0 ? `, with ${also.join(" and ")}` : ""}.`;
    return [
      new FileFragment({ path: this.path, template: "modules/schemas.py.njk", context: { doc: docstringText(doc) } }),
      ...this.#classes.map((item) =>
        item instanceof TypeAlias
          ? new SnippetFragment({ path: this.path, slot: "classes", value: `# ${item.comment}\n${item.name} = ${item.expression}`, imports: item.imports })
          : item.snippet(this.path),
      ),
    ];
  }
}
