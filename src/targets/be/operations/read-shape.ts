// The read shape of a resource, shared by `get` and `list`: the `{Model}Read` schema with
// its `{Parent}{Field}Nested` sub-schemas (SPEC's nested rules 1-3), one serializer per
// schema, and the loader chains that load every nested relationship before serialization.

import { ImportCollector, Name } from "../../../codegen/index.js";
import { type FieldSpec, type NestedField, withArticle } from "../config/schema.js";
import { optional, scalarAnnotation } from "../python/annotations.js";
import type { ResourceView } from "../resource.js";
import { capitalize } from "./handlers.js";
import { Field, SchemaClass, type SerializedField, SerializerFn } from "./types.js";

/** What a read operation needs to load and dump instances of its resource. */
export interface ReadShape {
  /** Sub-schemas first (innermost first), the read schema last. */
  schemas: SchemaClass[];
  /** Serializers in the same order; the last one serializes the read schema. */
  serializers: SerializerFn[];
  read: SchemaClass;
  serializer: SerializerFn;
  /** Loader chains as Python expressions, e.g. `selectinload(Article.comments).joinedload(Comment.author)`. */
  loaders: string[];
  loaderImports: ImportCollector;
}

const LOADER_FUNCTIONS = { selectin: "selectinload", joined: "joinedload", subquery: "subqueryload" } as const;

/** Builds the read shape of `view` from its resource fields. */
export function readShape(view: ResourceView): ReadShape {
  const schemas: SchemaClass[] = [];
  const serializers: SerializerFn[] = [];
  const serializer = buildSchema(view, {
    name: `${view.modelClass}Read`,
    doc: `${capitalize(withArticle(view.label))}, as returned by get and list.`,
    fields: view.config.fields,
    modelClass: view.modelClass,
    modelModule: view.modelModule,
    schemas,
    serializers,
  });
  const loaderImports = new ImportCollector();
  const loaders = loaderChains(view.modelClass, view.modelModule, view.config.fields, loaderImports);
  return { schemas, serializers, read: serializer.schema, serializer, loaders, loaderImports };
}

interface SchemaRequest {
  name: string;
  doc: string;
  fields: readonly FieldSpec[];
  modelClass: string;
  modelModule: string;
  schemas: SchemaClass[];
  serializers: SerializerFn[];
}

function buildSchema(view: ResourceView, request: SchemaRequest): SerializerFn {
  const imports = new ImportCollector().addFrom("pydantic", "BaseModel");
  const fields: Field[] = [];
  const serialized: SerializedField[] = [];
  for (const spec of request.fields) {
    if (spec.type === "nested") {
      const sub = nestedSerializer(view, request, spec);
      const element = sub.schema.name;
      fields.push(new Field({ name: spec.name, annotation: optional(spec.many ? `list[${element}]` : element, spec.nullable), nested: sub.schema, many: spec.many, description: spec.description }));
      serialized.push({ name: spec.name, nested: sub, many: spec.many, nullable: spec.nullable });
    } else {
      fields.push(new Field({ name: spec.name, annotation: optional(scalarAnnotation(spec.type, imports), spec.nullable), description: spec.description }));
      serialized.push({ name: spec.name });
    }
  }
  if (fields.some((field) => field.description)) imports.addFrom("pydantic", "Field");
  const schema = new SchemaClass({ file: view.schemaFile, module: view.schemaModule, name: request.name, doc: request.doc, fields, imports });
  const serializer = new SerializerFn({
    file: view.serializerFile,
    module: view.serializerModule,
    name: `to_${new Name(request.name).snake}`,
    schema,
    modelClass: request.modelClass,
    modelModule: request.modelModule,
    argument: new Name(request.modelClass).snake,
    fields: serialized,
  });
  request.schemas.push(schema);
  request.serializers.push(serializer);
  return serializer;
}

function nestedSerializer(view: ResourceView, parent: SchemaRequest, spec: NestedField): SerializerFn {
  const [modelModule, modelName] = Name.fromDotted(spec.model);
  const words = new Name(spec.name).snake.replace(/_/g, " ");
  return buildSchema(view, {
    ...parent,
    name: `${parent.name}${new Name(spec.name).pascal}Nested`,
    doc: `${spec.many ? `One of the ${words}` : `The ${words}`}, as embedded in \`\`${parent.name}\`\`.`,
    fields: spec.fields,
    modelClass: modelName.pascal,
    modelModule,
  });
}

// One chain per nested leaf: SQLAlchemy merges the shared prefixes (SPEC rule 3: a joined
// outer with a selectin inner composes as joined-then-selectin).
function loaderChains(modelClass: string, modelModule: string, fields: readonly FieldSpec[], imports: ImportCollector, prefix = ""): string[] {
  const chains: string[] = [];
  for (const spec of fields) {
    if (spec.type !== "nested") continue;
    imports.addFrom(modelModule, modelClass);
    const loader = LOADER_FUNCTIONS[spec.load];
    imports.addFrom("sqlalchemy.orm", loader);
    const link = `${prefix === "" ? loader : `${prefix}.${loader}`}(${modelClass}.${spec.name})`;
    const [innerModule, innerName] = Name.fromDotted(spec.model);
    const inner = loaderChains(innerName.pascal, innerModule, spec.fields, imports, link);
    chains.push(...(inner.length > 0 ? inner : [link]));
  }
  return chains;
}
