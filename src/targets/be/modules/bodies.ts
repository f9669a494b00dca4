// Request bodies: `{Model}Create`, `{Model}Update` and an action's `{Action}Params`. Scalar
// fields (SPEC nested rule 4), and in create and update bodies the many-to-many links they
// write: a link field with `many` is sent as the list of the related rows' keys. Create bodies
// require what the config requires; update bodies make every field optional (partial PATCH:
// an omitted field is `MISSING`) and accept null only for nullable columns. Fields written to
// a column carry the column's rules.

import { ImportCollector, Name, StaticFile, type ValidationIssue } from "../../../codegen/index.js";
import { inheritReference } from "../config/references.js";
import { type FieldSpec, type LinkField, type ResourceConfig, type ScalarField, isScalar, pluralize } from "../config/schema.js";
import { columnRuled, enumAnnotation, optional, requestAnnotation, valueType } from "../python/annotations.js";
import { fieldDefault, pythonLiteral, pythonString } from "../python/literals.js";
import { type ResourceView, collectionKey, modelRef, resourceLabel } from "../resource.js";
import { runtimeHelperFile } from "../runtime-source.js";
import { type Field, SchemaClass, type SchemaModule, fieldNamed } from "./schemas.js";

/** A link field with `many`, in a create or update body: the relationship it replaces, sent as the related rows' keys. */
export type RelationField = LinkField & { many: true };

/** A field of a create or update body: a column's value, or a many-to-many relationship's keys. */
export type BodyField = ScalarField | RelationField;

/**
 * An issue at each field of an entry's own body `fields` it cannot write: nested fields, and
 * link fields but a non-null `many` one (a to-one relationship is written through its key
 * field). For the `validate` of an operation that writes its `fields`.
 * @example [...bodyFieldIssues([{ name: "author", type: "nested", … }])] // [{ path: ["fields", 0, "type"], message: "nested fields are only allowed in get and list" }]
 */
export function* bodyFieldIssues(fields: readonly FieldSpec[] | undefined): Iterable<ValidationIssue> {
  for (const [index, field] of (fields ?? []).entries()) {
    if (field.type === "nested") yield { path: ["fields", index, "type"], message: "nested fields are only allowed in get and list" };
    else if (field.type === "link" && !field.many) {
      yield { path: ["fields", index, "many"], message: "a body writes a to-one relationship through its key field (such as author_id): a link field here needs many: true" };
    } else if (field.type === "link" && field.nullable) {
      yield { path: ["fields", index, "nullable"], message: "a list of keys is never null: an empty list unlinks every row" };
    }
  }
}

/** Whether a body field writes a relationship (a link with `many`), not a column. */
export function isRelation(field: BodyField): field is RelationField {
  return field.type === "link";
}

/** Fields of a write body: the op's own list, else the resource's scalar fields without a generated (uuid or int) primary key. */
export function writeFields(view: ResourceView, own: readonly FieldSpec[] | undefined): BodyField[] {
  if (own) return own as BodyField[]; // the op's validate (bodyFieldIssues) already rejected the others here
  const generatedPk = view.config.pk_type !== "str";
  return view.config.fields.filter((field): field is ScalarField => isScalar(field) && !(generatedPk && field.name === view.pk));
}

/** The resource whose rows a relation field links (the config checks made sure it exists). */
export function relatedResource(view: ResourceView, field: RelationField): ResourceConfig {
  const target = view.app.resources.find((resource) => resource.name === field.references);
  if (target === undefined) throw new Error(`bug: relation field "${field.name}" references "${field.references}", which passed the config checks but does not exist`);
  return target;
}

/** `Tag.id`: the key column of `resource`'s model, the model imported; a relation's keys are checked against it and its rows loaded by it. */
function keyColumn(resource: ResourceConfig, imports: ImportCollector): string {
  const model = modelRef(resource.model);
  imports.addFrom(model.module, model.importName);
  return `${model.local}.${resource.pk}`;
}

/** `Annotated[list[Annotated[int, column_rules(Tag.id)]], RelatedKeys]`: the keys a relation field is sent as. */
function relationAnnotation(view: ResourceView, field: RelationField, imports: ImportCollector): string {
  const target = relatedResource(view, field);
  const key = requestAnnotation(target.pk_type, keyColumn(target, imports), view.runtimePackage, imports);
  imports.addFrom("typing", "Annotated").addFrom(`${view.runtimePackage}.relations`, "RelatedKeys");
  return `Annotated[list[${key}], RelatedKeys]`;
}

/** The collection key `spec` references (its own `references`, else the resource field's of the same name). */
function referencesOf(view: ResourceView, spec: BodyField): string | undefined {
  const name = isRelation(spec) ? spec.references : inheritReference(spec, view.config.fields).references;
  return name === undefined ? undefined : collectionKey(view, name);
}

/** `Article.title`: the model attribute a body field is written to. */
function columnOf(view: ResourceView, spec: ScalarField): string {
  return `${view.model.local}.${spec.name}`;
}

/**
 * A field of a request body: required unless the config says otherwise, with its default;
 * `column` (the model attribute it is written to) gives it the column's rules.
 */
function bodyField(
  view: ResourceView,
  spec: ScalarField,
  column: string | undefined,
  names: readonly string[],
  imports: ImportCollector,
  references?: string,
): Field {
  const annotation = optional(requestAnnotation(valueType(spec), column, view.runtimePackage, imports), spec.nullable);
  const fallback = spec.default !== undefined ? defaultOf(spec, imports) : spec.nullable ? "None" : undefined;
  return fieldNamed(spec.name, names, { annotation, default: spec.required ? undefined : fallback, description: spec.description, references });
}

/**
 * A body field's default as Python: an enum's is its member (`blog.models.ArticleStatus("draft")`),
 * so the handler writes a member whether or not the request sent one, and a value no member
 * has fails when the app starts, not at the first request.
 */
function defaultOf(spec: ScalarField, imports: ImportCollector): string {
  if (spec.type !== "enum" || spec.default === null || spec.default === undefined) return fieldDefault(spec.default, imports);
  return `${enumAnnotation(spec.enum!, imports)}(${pythonLiteral(spec.default)})`;
}

/** What OpenAPI says of a relation field the config gives no description: the keys it takes, and (`update`) that they replace the set. */
function relationDescription(view: ResourceView, field: RelationField, update: boolean): string {
  const rows = pluralize(resourceLabel(relatedResource(view, field)));
  return field.description ?? (update ? `The keys of the ${rows} to link: the list replaces the set.` : `The keys of the ${rows} to link.`);
}

/** `{Model}Create`, added to the resource's schemas; a relation left out links no rows. */
export function createSchema(module: SchemaModule, view: ResourceView, fields: readonly BodyField[]): SchemaClass {
  const imports = new ImportCollector();
  const names = fields.map((spec) => spec.name);
  const schemaFields = fields.map((spec) =>
    isRelation(spec)
      ? fieldNamed(spec.name, names, { annotation: relationAnnotation(view, spec, imports), default: "Field(default_factory=list)", description: relationDescription(view, spec, false), references: referencesOf(view, spec) })
      : bodyField(view, spec, columnOf(view, spec), names, imports, referencesOf(view, spec)),
  );
  imports.addFrom(view.model.module, view.model.importName);
  return module.add(new SchemaClass({ module, name: `${view.model.name}Create`, doc: "The body of a create request.", fields: schemaFields, imports }));
}

/** `{Model}Update`, added to the resource's schemas; every field may be omitted, and only a nullable one sent as null. */
export function updateSchema(module: SchemaModule, view: ResourceView, fields: readonly BodyField[]): SchemaClass {
  const imports = new ImportCollector().addFrom("pydantic", "MISSING").addFrom(view.model.module, view.model.importName);
  const names = fields.map((spec) => spec.name);
  const schemaFields = fields.map((spec) => {
    const annotation = isRelation(spec) ? relationAnnotation(view, spec, imports) : optional(requestAnnotation(valueType(spec), columnOf(view, spec), view.runtimePackage, imports), spec.nullable);
    return fieldNamed(spec.name, names, {
      annotation: `${annotation} | MISSING`,
      default: "MISSING",
      description: isRelation(spec) ? relationDescription(view, spec, true) : spec.description,
      references: referencesOf(view, spec),
    });
  });
  return module.add(
    new SchemaClass({ module, name: `${view.model.name}Update`, doc: "The body of a partial update: only the fields sent are changed.", fields: schemaFields, imports }),
  );
}

/**
 * `{Action}Params`, the typed body of an action, added to the resource's schemas. A param
 * with `references` holds the key of that resource, and is checked against its key column.
 */
export function paramsSchema(module: SchemaModule, view: ResourceView, action: { name: string; slug: string }, params: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  const referencedKey = (param: ScalarField): string | undefined => {
    const target = view.app.resources.find((resource) => resource.name === param.references);
    return target === undefined || !columnRuled(valueType(param)) ? undefined : keyColumn(target, imports);
  };
  return module.add(
    new SchemaClass({
      module,
      name: `${new Name(action.name).pascal}Params`,
      doc: `Params of the \`\`${action.slug}\`\` action.`,
      fields: params.map((param) => bodyField(view, param, referencedKey(param), params.map((other) => other.name), imports)),
      imports,
    }),
  );
}

/** How a create or update handler writes its body: what it imports, what its template is given, the files it needs. */
export interface BodyWrites {
  /** The handler's imports: the model, the body, the related models and `related_rows`, and those `bodyWrites` was given. */
  imports: ImportCollector;
  /** One per relation: `name` (the model's relationship), `attribute` (the body's), `key` (`Tag.id`), `field` (its name as a Python string). */
  relations: { name: string; attribute: string; key: string; field: string }[];
  /** The keywords of the body's `model_dump(...)` beyond `exclude_unset`: the relations left out, `by_alias`. */
  dump: string;
  /** The runtime helper `relations.py` when some relation is written, to return beside the handler. */
  files: StaticFile[];
}

/**
 * How the handler of `body` (a schema built from `fields`) writes it, its imports starting
 * from `also`'s. The columns are dumped without the relations, which are loaded by their
 * keys through the session (row visibility applies).
 */
export function bodyWrites(view: ResourceView, body: SchemaClass, fields: readonly BodyField[], ...also: ImportCollector[]): BodyWrites {
  const imports = new ImportCollector().addFrom(view.model.module, view.model.importName).addFrom(body.module.dotted, body.name);
  for (const more of also) imports.update(more);
  const relations = fields.filter(isRelation).map((field) => ({
    name: field.name,
    attribute: body.attributeOf(field.name),
    key: keyColumn(relatedResource(view, field), imports),
    field: pythonString(field.name),
  }));
  if (relations.length > 0) imports.addFrom(`${view.runtimePackage}.relations`, "related_rows");
  const exclude = relations.length > 0 ? [`exclude={${relations.map((relation) => pythonString(relation.attribute)).join(", ")}}`] : [];
  return {
    imports,
    relations,
    dump: [...exclude, ...(body.aliased ? ["by_alias=True"] : [])].join(", "),
    files: relations.length > 0 ? [new StaticFile(runtimeHelperFile("relations"))] : [],
  };
}
