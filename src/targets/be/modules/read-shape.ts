// The read shape of a resource: the `{Model}Read` schema with its `{Parent}{Field}Nested`
// sub-schemas (SPEC's nested rules 1-3), one serializer per schema, and the loader chains
// that load every nested relationship before serialization. Built once per resource; its
// classes join the resource's modules the first time an operation uses it.

import { ImportCollector, Name } from "../../../codegen/index.js";
import { type FieldSpec, type NestedField, withArticle } from "../config/schema.js";
import { optional, scalarAnnotation } from "../python/annotations.js";
import { type ModelRef, type ResourceView, collectionKey, modelRef } from "../resource.js";
import { type Field, SchemaClass, type SchemaModule, fieldNamed } from "./schemas.js";
import { type SerializedField, SerializerFn, type SerializerModule } from "./serializers.js";

const LOADER_FUNCTIONS = { selectin: "selectinload", joined: "joinedload", subquery: "subqueryload" } as const;

/** What an operation answering with the read schema uses. */
export interface ReadSchema {
  schema: SchemaClass;
  serializer: SerializerFn;
  /** Loader chains as Python expressions, e.g. `selectinload(Article.comments).joinedload(Comment.author)`. */
  loaders: readonly string[];
  /** What the loader chains import. */
  loaderImports: ImportCollector;
}

/** The read shape of one resource. */
export class ReadShape {
  readonly #schemas: SchemaClass[] = [];
  readonly #serializers: SerializerFn[] = [];
  readonly #read: ReadSchema;
  readonly #schemaModule: SchemaModule;
  readonly #serializerModule: SerializerModule;
  #used = false;

  constructor(view: ResourceView, schemas: SchemaModule, serializers: SerializerModule) {
    this.#schemaModule = schemas;
    this.#serializerModule = serializers;
    const serializer = this.#build(view, {
      name: `${view.model.name}Read`,
      doc: `${capitalize(withArticle(view.label))}, as returned by get and list.`,
      fields: view.config.fields,
      model: view.model,
    });
    const loaderImports = new ImportCollector();
    const loaders = loaderChains(view.model, view.config.fields, loaderImports);
    this.#read = { schema: serializer.schema, serializer, loaders, loaderImports };
  }

  /** The read schema; the first call adds its classes and serializers to the resource's modules. */
  use(): ReadSchema {
    if (!this.#used) {
      this.#used = true;
      this.#schemas.forEach((schema) => this.#schemaModule.add(schema));
      this.#serializers.forEach((serializer) => this.#serializerModule.add(serializer));
    }
    return this.#read;
  }

  #build(view: ResourceView, request: { name: string; doc: string; fields: readonly FieldSpec[]; model: ModelRef }): SerializerFn {
    const imports = new ImportCollector();
    const fields: Field[] = [];
    const serialized: SerializedField[] = [];
    const names = request.fields.map((spec) => spec.name);
    for (const spec of request.fields) {
      if (spec.type === "nested") {
        const sub = this.#nested(view, request.name, spec);
        const annotation = optional(spec.many ? `list[${sub.schema.name}]` : sub.schema.name, spec.nullable);
        const field = fieldNamed(spec.name, names, { annotation, description: spec.description });
        fields.push(field);
        serialized.push({ name: spec.name, nested: sub, many: spec.many, nullable: spec.nullable });
      } else {
        const references = spec.references === undefined ? undefined : collectionKey(view, spec.references);
        const field = fieldNamed(spec.name, names, { annotation: optional(scalarAnnotation(spec.type, imports), spec.nullable), description: spec.description, references });
        fields.push(field);
        serialized.push({ name: spec.name });
      }
    }
    // Clients read the key field of the resource's own read schema from `x-pk`.
    const pk = request.model === view.model && request.fields === view.config.fields && names.includes(view.pk) ? view.pk : undefined;
    const schema = new SchemaClass({ module: this.#schemaModule, name: request.name, doc: request.doc, fields, pk, imports });
    const serializer = new SerializerFn({
      module: this.#serializerModule,
      name: `to_${new Name(request.name).snake}`,
      schema,
      model: request.model,
      argument: new Name(request.model.name).snake,
      fields: serialized,
    });
    // Sub-schemas first (innermost first), so every class is defined before it is used.
    this.#schemas.push(schema);
    this.#serializers.push(serializer);
    return serializer;
  }

  #nested(view: ResourceView, parent: string, spec: NestedField): SerializerFn {
    const words = new Name(spec.name).snake.replace(/_/g, " ");
    return this.#build(view, {
      name: `${parent}${new Name(spec.name).pascal}Nested`,
      doc: `${spec.many ? `One of the ${words}` : `The ${words}`}, as embedded in \`\`${parent}\`\`.`,
      fields: spec.fields,
      model: modelRef(spec.model),
    });
  }
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// One chain per nested leaf: SQLAlchemy merges the shared prefixes (SPEC rule 3: a joined
// outer with a selectin inner composes as joined-then-selectin).
function loaderChains(model: ModelRef, fields: readonly FieldSpec[], imports: ImportCollector, prefix = ""): string[] {
  const chains: string[] = [];
  for (const spec of fields) {
    if (spec.type !== "nested") continue;
    imports.addFrom(model.module, model.importName);
    const loader = LOADER_FUNCTIONS[spec.load];
    imports.addFrom("sqlalchemy.orm", loader);
    const link = `${prefix === "" ? loader : `${prefix}.${loader}`}(${model.local}.${spec.name})`;
    const inner = loaderChains(modelRef(spec.model), spec.fields, imports, link);
    chains.push(...(inner.length > 0 ? inner : [link]));
  }
  return chains;
}
