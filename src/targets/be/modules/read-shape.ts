// The read shapes of a resource, one per representation: `read` (the resource's `fields`:
// `{Model}Read` with its `{Parent}{Field}Nested` sub-schemas, SPEC's nested rules 1-3),
// each named representation (`{Model}{Name}`, or a builder of the user's), one serializer
// per schema, and the loader chains that load every nested and linked relationship
// before serialization. A shape's classes join the resource's modules on first use. With
// a `link` config the resource also gets `{Model}Link` and `to_{name}_link`.

import { ImportCollector, Name, prefixImport } from "../../../codegen/index.js";
import { type FieldSpec, type LinkField, type NestedField, READ_REPRESENTATION, type ResourceConfig, type SerializerConfig, isScalar, withArticle } from "../config/schema.js";
import { optional, scalarAnnotation, valueType } from "../python/annotations.js";
import { pythonString } from "../python/literals.js";
import { type ModelRef, type ResourceView, collectionKey, modelRef } from "../resource.js";
import { mayBeHidden } from "../row-visibility.js";
import { Field, SchemaClass, type SchemaModule, fieldNamed } from "./schemas.js";
import { type RowSerializerFn, linkColumns, rowSerializer } from "./row-serializer.js";
import { type SerializedField, SerializerFn, type SerializerModule } from "./serializers.js";

const LOADER_FUNCTIONS = { selectin: "selectinload", joined: "joinedload", subquery: "subqueryload" } as const;

/** A function turning a row into a response: a generated serializer, or a builder or serializer of the user's. */
export interface RowSerializer {
  name: string;
  module: { dotted: string };
  /** kiln's serializer (`convention: "kiln"`): awaited, with the row, the signed-in user (or `None`) and the database session. */
  kiln?: boolean;
}

/** What an operation answering with one representation uses. */
export interface ReadSchema {
  /** The representation's name: `read`, or one of the resource's `representations`. */
  representation: string;
  /** The generated schema; undefined for a builder representation or an entry's own serializer. */
  schema: SchemaClass | undefined;
  /** The response annotation: the schema's name; for a function of the user's, its model's dotted path or `Any`. */
  responseModel: string;
  serializer: RowSerializer;
  /** Scalar fields the response shows (tests compare them); undefined for a builder. */
  fieldNames: readonly string[] | undefined;
  /** Loader chains as Python expressions, e.g. `selectinload(Article.comments).joinedload(Comment.author)`. */
  loaders: readonly string[];
  /** What the loader chains import. */
  loaderImports: ImportCollector;
  /** A collection is joined into the row's own query, so its rows repeat the row: the result needs `unique()`. */
  joinsCollection: boolean;
  /** What a handler answering with it imports: its schema (or `Any`) and its serializer. */
  imports: ImportCollector;
}

/** Where the link schema and serializer of a resource live. */
export function linkNames(view: ResourceView, resource: ResourceConfig): { schema: string; schemaModule: string; serializer: string; serializerModule: string; type: string } {
  const prefix = view.runtimePackage.replace(/\.?runtime$/, "");
  const module = view.app.module;
  return {
    schema: `${modelRef(resource.model).name}Link`,
    schemaModule: prefixImport(prefix, module, "schemas", resource.name),
    serializer: `to_${resource.name}_link`,
    serializerModule: prefixImport(prefix, module, "serializers", resource.name),
    type: view.operationIdPrefix === "" ? resource.name : `${module}.${resource.name}`,
  };
}

/** The read shapes of one resource. */
export class ReadShape {
  readonly #view: ResourceView;
  readonly #schemaModule: SchemaModule;
  readonly #serializerModule: SerializerModule;
  readonly #shapes = new Map<string, ReadSchema>();
  /** The fields and serializer of each generated representation, which `rows` reads. */
  readonly #generated = new Map<string, { fields: readonly FieldSpec[]; fn: SerializerFn }>();
  readonly #rows = new Map<string, RowSerializerFn | undefined>();

  constructor(view: ResourceView, schemas: SchemaModule, serializers: SerializerModule) {
    this.#view = view;
    this.#schemaModule = schemas;
    this.#serializerModule = serializers;
    if (view.config.link) this.#addLink();
  }

  /**
   * The representation `name` (default: the resource's `default_representation`); the
   * first call adds its classes and serializers to the resource's modules.
   */
  use(name: string = this.#view.config.default_representation): ReadSchema {
    let shape = this.#shapes.get(name);
    if (shape === undefined) {
      shape = this.#make(name);
      this.#shapes.set(name, shape);
    }
    return shape;
  }

  /**
   * The row serializer of `shape` (`to_article_read_from_row` and `ARTICLE_READ_ROWS`),
   * added to the serializers module on first use; undefined for a function of the user's,
   * or a shape one select of columns cannot read (row-serializer.ts).
   */
  rows(shape: ReadSchema): RowSerializerFn | undefined {
    const generated = shape.schema === undefined ? undefined : this.#generated.get(shape.representation);
    if (generated === undefined) return undefined;
    if (!this.#rows.has(shape.representation)) {
      const serializer = rowSerializer({
        module: this.#serializerModule,
        model: this.#view.model,
        fields: generated.fields,
        fn: generated.fn,
        link: (spec) => linkColumns(this.#linkTarget(spec), linkNames(this.#view, this.#linkTarget(spec))),
      });
      if (serializer !== undefined) this.#serializerModule.addRows(serializer);
      this.#rows.set(shape.representation, serializer);
    }
    return this.#rows.get(shape.representation);
  }

  /** The shape an entry answers with: its own `serializer`, else its `representation` (default: the resource's). */
  of(entry: { representation?: string; serializer?: SerializerConfig; convention?: string }): ReadSchema {
    if (entry.serializer === undefined) return this.use(entry.representation);
    // The user's function, answering the Pydantic model `schema` names (or any JSON value without one).
    const shape = this.#userFunction(READ_REPRESENTATION, entry.serializer.fn, entry.serializer.schema);
    return entry.convention === "kiln" ? { ...shape, serializer: { ...shape.serializer, kiln: true } } : shape;
  }

  #make(name: string): ReadSchema {
    const view = this.#view;
    const declared = view.config.representations.find((representation) => representation.name === name);
    if (name !== READ_REPRESENTATION && declared === undefined) throw new Error(`bug: representation "${name}" passed the config checks but is not declared`);
    const fields = declared?.fields ?? (declared === undefined ? view.config.fields : undefined);
    if (fields === undefined) return this.#userFunction(name, declared!.builder!);
    const loaderImports = new ImportCollector();
    const loaders = loaderChains(view.model, fields, loaderImports);
    const pascal = name === READ_REPRESENTATION ? "Read" : new Name(name).pascal;
    const added: { schemas: SchemaClass[]; serializers: SerializerFn[] } = { schemas: [], serializers: [] };
    const serializer = this.#build(added, {
      name: `${view.model.name}${pascal}`,
      doc: name === READ_REPRESENTATION ? `${capitalize(withArticle(view.label))}, as returned by get and list.` : `${capitalize(withArticle(view.label))}, as the \`\`${name}\`\` representation shows it.`,
      fields,
      model: view.model,
      actions: view.config.include_actions_in_dump === true,
    });
    // Sub-schemas first (innermost first), so every class is defined before it is used.
    added.schemas.forEach((schema) => this.#schemaModule.add(schema));
    added.serializers.forEach((fn) => this.#serializerModule.add(fn));
    this.#generated.set(name, { fields, fn: serializer });
    const imports = new ImportCollector().addFrom(serializer.schema.module.dotted, serializer.schema.name).addFrom(serializer.module.dotted, serializer.name);
    // The function is written only once a route asks for it (or what imports it): a shape
    // that routes read only as columns (`rows`) writes no unused serializer of objects.
    return {
      representation: name,
      schema: serializer.schema,
      responseModel: serializer.schema.name,
      get serializer() {
        return serializer.markCalled();
      },
      fieldNames: fields.filter((field) => field.type !== "nested" && field.type !== "link").map((field) => field.name),
      loaders,
      loaderImports,
      joinsCollection: joinsCollection(fields),
      get imports() {
        serializer.markCalled();
        return imports;
      },
    };
  }

  /** A shape a function of the user's makes (a builder, a serializer): it gets the row with everything the resource's own fields show. */
  #userFunction(representation: string, fn: string, schema?: string): ReadSchema {
    const loaderImports = new ImportCollector();
    const loaders = loaderChains(this.#view.model, this.#view.config.fields, loaderImports);
    const [module, name] = Name.fromDotted(fn);
    const imports = new ImportCollector().addFrom(module, name.raw);
    // The model by its dotted path, like a guard: a class of the user's never shadows a generated import (`Page`).
    let responseModel = "Any";
    if (schema === undefined) {
      imports.addFrom("typing", "Any");
    } else {
      imports.add(Name.fromDotted(schema)[0]);
      responseModel = schema;
    }
    return {
      representation,
      schema: undefined,
      responseModel,
      serializer: { name: name.raw, module: { dotted: module } },
      fieldNames: undefined,
      loaders,
      loaderImports,
      joinsCollection: joinsCollection(this.#view.config.fields),
      imports,
    };
  }

  #build(added: { schemas: SchemaClass[]; serializers: SerializerFn[] }, request: { name: string; doc: string; fields: readonly FieldSpec[]; model: ModelRef; actions?: boolean }): SerializerFn {
    const view = this.#view;
    const imports = new ImportCollector();
    const serializerImports = new ImportCollector();
    const fields: Field[] = [];
    const serialized: SerializedField[] = [];
    const names = request.fields.map((spec) => spec.name);
    for (const spec of request.fields) {
      if (spec.type === "nested") {
        const sub = this.#nested(added, request.name, spec);
        // A single object the user may not see is loaded as None (row visibility): the schema says null.
        const nullable = spec.nullable || (!spec.many && mayBeHidden(view.project, view.store, spec.model));
        const annotation = optional(spec.many ? `list[${sub.schema.name}]` : sub.schema.name, nullable);
        fields.push(fieldNamed(spec.name, names, { annotation, description: spec.description }));
        serialized.push({ name: spec.name, nested: sub, many: spec.many, nullable });
      } else if (spec.type === "link") {
        const link = this.#linkTo(spec);
        imports.addFrom(link.schemaModule, link.schema);
        serializerImports.addFrom(link.serializerModule, link.serializer);
        const nullable = spec.nullable || (!spec.many && mayBeHidden(view.project, view.store, this.#linkTarget(spec).model));
        fields.push(fieldNamed(spec.name, names, { annotation: optional(spec.many ? `list[${link.schema}]` : link.schema, nullable), description: spec.description }));
        serialized.push({ name: spec.name, nested: { name: link.serializer, argument: spec.name }, many: spec.many, nullable });
      } else {
        const references = spec.references === undefined ? undefined : collectionKey(view, spec.references);
        fields.push(fieldNamed(spec.name, names, { annotation: optional(scalarAnnotation(valueType(spec), imports), spec.nullable), description: spec.description, references }));
        serialized.push({ name: spec.name });
      }
    }
    if (request.actions) {
      // `include_actions_in_dump`: the routes that answer rows fill it (operations/permissions/row-actions.ts); others leave it empty.
      imports.addFrom(`${view.runtimePackage}.actions`, "ActionRef");
      fields.push(new Field({ name: "actions", annotation: "list[ActionRef]", default: "[]", description: "The operations the current user may call on this row." }));
    }
    // Clients read the key field of the resource's own read schemas from `x-pk`.
    const pk = request.model === view.model && names.includes(view.pk) ? view.pk : undefined;
    const schema = new SchemaClass({ module: this.#schemaModule, name: request.name, doc: request.doc, fields, pk, imports });
    const serializer = new SerializerFn({
      module: this.#serializerModule,
      name: `to_${new Name(request.name).snake}`,
      schema,
      model: request.model,
      argument: new Name(request.model.name).snake,
      fields: serialized,
      imports: serializerImports,
    });
    added.schemas.push(schema);
    added.serializers.push(serializer);
    return serializer;
  }

  #nested(added: { schemas: SchemaClass[]; serializers: SerializerFn[] }, parent: string, spec: NestedField): SerializerFn {
    const words = new Name(spec.name).snake.replace(/_/g, " ");
    return this.#build(added, {
      name: `${parent}${new Name(spec.name).pascal}Nested`,
      doc: `${spec.many ? `One of the ${words}` : `The ${words}`}, as embedded in \`\`${parent}\`\`.`,
      fields: spec.fields,
      model: modelRef(spec.model),
    });
  }

  #linkTo(spec: LinkField): ReturnType<typeof linkNames> {
    return linkNames(this.#view, this.#linkTarget(spec));
  }

  #linkTarget(spec: LinkField): ResourceConfig {
    const target = this.#view.app.resources.find((resource) => resource.name === spec.references);
    if (target === undefined) throw new Error(`bug: link field "${spec.name}" references "${spec.references}", which passed the config checks but does not exist`);
    return target;
  }

  /** `{Model}Link` and `to_{name}_link`: how other resources show this one. */
  #addLink(): void {
    const view = this.#view;
    const link = view.config.link!;
    const names = linkNames(view, view.config);
    const imports = new ImportCollector().addFrom("typing", "Literal");
    const fieldNamed = (name: string | undefined) => (name === undefined ? undefined : view.config.fields.find((field) => field.name === name));
    // kiln's `link.id`: another field's value as the link's id; the primary key by default.
    const idField = fieldNamed(link.id);
    const idAnnotation = idField === undefined || !isScalar(idField) ? view.pkAnnotation : optional(scalarAnnotation(valueType(idField), imports), idField.nullable === true);
    const schema = this.#schemaModule.add(
      new SchemaClass({
        module: this.#schemaModule,
        name: names.schema,
        doc: `${capitalize(withArticle(view.label))} where another resource refers to it: its type, ${idField === undefined ? "key" : "id"} and label.`,
        fields: [
          new Field({ name: "type", annotation: `Literal[${pythonString(names.type)}]` }),
          new Field({ name: "id", annotation: idAnnotation }),
          new Field({ name: "label", annotation: "str" }),
        ],
        imports: idField === undefined ? imports.update(view.pkImports) : imports,
      }),
    );
    const argument = new Name(view.model.name).snake;
    const id = `${argument}.${link.id ?? view.pk}`;
    // kind "id" names no label field: the id, as text, labels the link.
    const labelName = link.name ?? link.id ?? view.pk;
    const label = fieldNamed(labelName);
    const text = label !== undefined && (label.type === "str" || label.type === "email") && !label.nullable;
    // Always written: other resources' serializers and `_values` call it.
    this.#serializerModule.add(
      new SerializerFn({
        module: this.#serializerModule,
        name: names.serializer,
        schema,
        model: view.model,
        argument,
        fields: [
          { name: "type", value: pythonString(names.type) },
          { name: "id", value: id },
          { name: "label", value: text ? `${argument}.${labelName}` : `str(${argument}.${labelName})` },
        ],
      }),
    ).markCalled();
  }
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether a collection is loaded by joins alone from the row (`selectin` and `subquery` loads run queries of their own). */
function joinsCollection(fields: readonly FieldSpec[]): boolean {
  return fields.some(
    (spec) => (spec.type === "nested" || spec.type === "link") && spec.load === "joined" && (spec.many === true || (spec.type === "nested" && joinsCollection(spec.fields))),
  );
}

// One chain per nested or linked leaf: SQLAlchemy merges the shared prefixes (SPEC rule 3:
// a joined outer with a selectin inner composes as joined-then-selectin).
function loaderChains(model: ModelRef, fields: readonly FieldSpec[], imports: ImportCollector, prefix = ""): string[] {
  const chains: string[] = [];
  for (const spec of fields) {
    if (spec.type !== "nested" && spec.type !== "link") continue;
    imports.addFrom(model.module, model.importName);
    const loader = LOADER_FUNCTIONS[spec.load];
    // Only a chain's first loader is the imported function; the others are its methods.
    if (prefix === "") imports.addFrom("sqlalchemy.orm", loader);
    const link = `${prefix === "" ? loader : `${prefix}.${loader}`}(${model.local}.${spec.name})`;
    if (spec.type === "link") {
      chains.push(link);
      continue;
    }
    const inner = loaderChains(modelRef(spec.model), spec.fields, imports, link);
    chains.push(...(inner.length > 0 ? inner : [link]));
  }
  return chains;
}
