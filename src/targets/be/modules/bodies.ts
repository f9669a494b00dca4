// Request bodies: `{Model}Create`, `{Model}Update` and an action's `{Action}Params`. Scalar
// fields only (SPEC nested rule 4). Create bodies require what the config requires; update
// bodies make every field optional (partial PATCH) and refuse an explicit null for columns
// that are not nullable.

import { ImportCollector, Name } from "../../../codegen/index.js";
import { type FieldSpec, type ScalarField, isScalar } from "../config/schema.js";
import { optional, scalarAnnotation } from "../python/annotations.js";
import { fieldDefault } from "../python/literals.js";
import type { ResourceView } from "../resource.js";
import { Field, SchemaClass, type SchemaModule } from "./schemas.js";

/** Fields of a write body: the op's own list, else the resource's scalar fields without a generated (uuid or int) primary key. */
export function writeFields(view: ResourceView, own: readonly FieldSpec[] | undefined): ScalarField[] {
  if (own) return own as ScalarField[]; // the op's Options already rejected nested fields here
  const generatedPk = view.config.pk_type !== "str";
  return view.config.fields.filter((field): field is ScalarField => isScalar(field) && !(generatedPk && field.name === view.pk));
}

/** A field of a request body: required unless the config says otherwise, with its default. */
function bodyField(spec: ScalarField, imports: ImportCollector): Field {
  const annotation = optional(scalarAnnotation(spec.type, imports), spec.nullable);
  const fallback = spec.default !== undefined ? fieldDefault(spec.default, imports) : spec.nullable ? "None" : undefined;
  return new Field({ name: spec.name, annotation, default: spec.required ? undefined : fallback, description: spec.description });
}

/** `{Model}Create`, added to the resource's schemas. */
export function createSchema(module: SchemaModule, view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  const schemaFields = fields.map((spec) => bodyField(spec, imports));
  return module.add(new SchemaClass({ module, name: `${view.modelClass}Create`, doc: "The body of a create request.", fields: schemaFields, imports }));
}

/** `{Model}Update`, added to the resource's schemas; fields that are not nullable may be omitted but not sent as null. */
export function updateSchema(module: SchemaModule, view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  const schemaFields = fields.map(
    (spec) => new Field({ name: spec.name, annotation: optional(scalarAnnotation(spec.type, imports), true), default: "None", description: spec.description }),
  );
  return module.add(
    new SchemaClass({
      module,
      name: `${view.modelClass}Update`,
      doc: "The body of a partial update: only the fields sent are changed.",
      fields: schemaFields,
      rejectNull: fields.filter((spec) => !spec.nullable).map((spec) => spec.name),
      imports,
    }),
  );
}

/** `{Action}Params`, the typed body of an action, added to the resource's schemas. */
export function paramsSchema(module: SchemaModule, action: { name: string; slug: string }, params: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  return module.add(
    new SchemaClass({
      module,
      name: `${new Name(action.name).pascal}Params`,
      doc: `Params of the \`\`${action.slug}\`\` action.`,
      fields: params.map((param) => bodyField(param, imports)),
      imports,
    }),
  );
}
