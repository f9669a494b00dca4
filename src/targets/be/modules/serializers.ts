// `{module}/serializers/{name}.py`: one function per read (sub-)schema, building it field by
// field from a model instance. Produced once per resource; the read shape fills it on first
// use, so a resource that never answers with its read schema writes no serializers file.

import { FileFragment, type Fragment, ImportCollector, SnippetFragment } from "../../../codegen/index.js";
import { docstringText } from "../python/literals.js";
import type { ModelRef, ResourceView } from "../resource.js";
import type { RowSerializerFn } from "./row-serializer.js";
import type { SchemaClass } from "./schemas.js";

/** How a serializer fills one schema field from the model instance. */
export interface SerializedField {
  /** The model's attribute. */
  name: string;
  /** Sub-serializer of a nested or link field: its function name and parameter name. */
  nested?: { name: string; argument: string };
  many?: boolean;
  nullable?: boolean;
  /** A Python expression of the value instead of the attribute of the same name. */
  value?: string;
}

/** A function building a read schema from a model instance. */
export class SerializerFn {
  readonly module: SerializerModule;
  /** Function name, e.g. `to_article_read`. */
  readonly name: string;
  readonly schema: SchemaClass;
  /** The model class it reads. */
  readonly model: ModelRef;
  /** Parameter name of the instance, e.g. `article`. */
  readonly argument: string;
  readonly fields: readonly SerializedField[];
  /** What the body calls from other modules (link serializers of other resources). */
  readonly imports: ImportCollector;
  #called = false;

  constructor(options: {
    module: SerializerModule;
    name: string;
    schema: SchemaClass;
    model: ModelRef;
    argument: string;
    fields: readonly SerializedField[];
    imports?: ImportCollector;
  }) {
    this.module = options.module;
    this.name = options.name;
    this.schema = options.schema;
    this.model = options.model;
    this.argument = options.argument;
    this.fields = options.fields;
    this.imports = options.imports ?? new ImportCollector();
  }

  /** Whether generated code outside this module calls it (`markCalled`). */
  get called(): boolean {
    return this.#called;
  }

  /**
   * Marks it called from outside its module, so the module writes it (with the nested
   * ones it calls). A bug once the module is rendered: the caller would import a
   * function the file does not have, so a route must ask in its build, not at render.
   */
  markCalled(): this {
    if (!this.#called) this.module.assertOpen(this.name);
    this.#called = true;
    return this;
  }

  /** What `serializer.py.njk` reads, as plain data: the render memo reuses a render of plain data in watch mode. */
  templateContext(): { name: string; argument: string; model: { local: string }; schema: { name: string }; body: string } {
    return { name: this.name, argument: this.argument, model: { local: this.model.local }, schema: { name: this.schema.name }, body: this.body };
  }

  /** `return Schema(field=value, …)` on one line (the formatter lays it out). */
  get body(): string {
    // Keyword names are the fields' aliases where they have one: what type checkers expect.
    return `return ${this.schema.name}(${this.fields.map((field) => `${field.name}=${this.#valueOf(field)}`).join(", ")})`;
  }

  #valueOf(field: SerializedField): string {
    if (field.value !== undefined) return field.value;
    const source = `${this.argument}.${field.name}`;
    if (!field.nested) return source;
    const sub = field.nested.name;
    if (field.many) {
      const item = field.nested.argument === this.argument ? `${this.argument}_item` : field.nested.argument;
      return `[${sub}(${item}) for ${item} in ${source}]`;
    }
    return field.nullable ? `${sub}(${source}) if ${source} is not None else None` : `${sub}(${source})`;
  }
}

/** The serializers module of one resource. */
export class SerializerModule {
  readonly path: string;
  readonly dotted: string;
  readonly #view: ResourceView;
  readonly #functions: SerializerFn[] = [];
  readonly #rowFunctions: RowSerializerFn[] = [];
  /** Set by `render`: whatever is added or asked for later would be missing from the file. */
  #rendered = false;

  constructor(view: ResourceView) {
    this.#view = view;
    this.path = view.serializerFile;
    this.dotted = view.serializerModule;
  }

  /** A bug after `render`: `what` would be imported from a file that does not have it. */
  assertOpen(what: string): void {
    if (this.#rendered) throw new Error(`bug: ${what} is asked for after ${this.path} was rendered; ask for it in the build`);
  }

  add(serializer: SerializerFn): SerializerFn {
    this.assertOpen(serializer.name);
    this.#functions.push(serializer);
    return serializer;
  }

  /** Adds a row serializer (after every serializer of objects). */
  addRows(serializer: RowSerializerFn): RowSerializerFn {
    this.assertOpen(serializer.name);
    this.#rowFunctions.push(serializer);
    return serializer;
  }

  /** The functions something calls: those called from outside, and the nested ones they call, in order. */
  #written(): SerializerFn[] {
    const written = new Set(this.#functions.filter((fn) => fn.called));
    for (const fn of written) for (const field of fn.fields) if (field.nested instanceof SerializerFn) written.add(field.nested);
    return this.#functions.filter((fn) => written.has(fn));
  }

  render(): Fragment[] {
    this.#rendered = true;
    const functions = this.#written();
    if (functions.length === 0 && this.#rowFunctions.length === 0) return [];
    return [
      new FileFragment({
        path: this.path,
        template: "modules/serializers.py.njk",
        context: { label: docstringText(this.#view.label), objects: functions.length > 0, rows: this.#rowFunctions.length > 0 },
      }),
      ...functions.map(
        (serializer) =>
          new SnippetFragment({
            path: this.path,
            slot: "functions",
            template: "modules/serializer.py.njk",
            context: { serializer: serializer.templateContext() },
            imports: new ImportCollector()
              .addFrom(serializer.schema.module.dotted, serializer.schema.name)
              .addFrom(serializer.model.module, serializer.model.importName)
              .update(serializer.imports),
          }),
      ),
      ...this.#rowFunctions.map((serializer) => new SnippetFragment({ path: this.path, slot: "functions", value: serializer.code, imports: serializer.imports })),
    ];
  }
}
