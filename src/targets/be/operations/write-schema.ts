// Request bodies of `create` and `update`: scalar fields only (SPEC nested rule 4). Create
// bodies require what the config requires; update bodies make every field optional (partial
// PATCH) and refuse an explicit null for columns that are not nullable.

import { ImportCollector } from "../../../codegen/index.js";
import type { FieldSpec, ScalarField } from "../config/schema.js";
import { optional, scalarAnnotation } from "../python/annotations.js";
import { fieldDefault } from "../python/literals.js";
import type { ResourceView } from "../resource.js";
import { Field, SchemaClass } from "./types.js";

/** Fields of a write body: the op's own list, else the resource's scalar fields without the generated primary key. */
export function writeFields(view: ResourceView, own: readonly FieldSpec[] | undefined): ScalarField[] {
  if (own) return own as ScalarField[]; // the op's Options already rejected nested fields here
  const generatedPk = view.config.pk_type !== "str";
  return view.config.fields.filter((field): field is ScalarField => field.type !== "nested" && !(generatedPk && field.name === view.pk));
}

/** A field of a request body: required unless the config says otherwise, with its default. */
export function bodyField(spec: ScalarField, imports: ImportCollector): Field {
  const annotation = optional(scalarAnnotation(spec.type, imports), spec.nullable);
  const fallback = spec.default !== undefined ? fieldDefault(spec.default, imports) : spec.nullable ? "None" : undefined;
  return new Field({ name: spec.name, annotation, default: spec.required ? undefined : fallback, description: spec.description });
}

/** `{Model}Create`. */
export function createSchema(view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector().addFrom("pydantic", "BaseModel");
  const schemaFields = fields.map((spec) => bodyField(spec, imports));
  if (schemaFields.some((field) => field.description)) imports.addFrom("pydantic", "Field");
  return new SchemaClass({ file: view.schemaFile, module: view.schemaModule, name: `${view.modelClass}Create`, doc: "The body of a create request.", fields: schemaFields, imports });
}

/** `{Model}Update`; fields that are not nullable may be omitted but not sent as null. */
export function updateSchema(view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector().addFrom("pydantic", "BaseModel");
  const schemaFields = fields.map((spec) => new Field({ name: spec.name, annotation: optional(scalarAnnotation(spec.type, imports), true), default: "None", description: spec.description }));
  if (schemaFields.some((field) => field.description)) imports.addFrom("pydantic", "Field");
  const notNull = fields.filter((spec) => !spec.nullable).map((spec) => spec.name);
  if (notNull.length > 0) imports.addFrom("pydantic", "field_validator");
  return new SchemaClass({
    file: view.schemaFile,
    module: view.schemaModule,
    name: `${view.modelClass}Update`,
    doc: "The body of a partial update: only the fields sent are changed.",
    fields: schemaFields,
    rejectNull: notNull,
    imports,
  });
}
