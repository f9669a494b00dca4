// A read shape read as columns, for the routes where no code of the user's needs ORM
// objects: `ARTICLE_READ_ROWS` selects every column the schema shows (a nested single
// object's and a link's through an outer join, so a missing or hidden one reads as NULLs,
// as its load gives None), and `to_article_read_from_row` builds the schema from one of its
// rows by position. The ORM's row visibility applies to such a select as to a load.
// Shapes it cannot read so (collections, deeper nesting, a model joined twice) have none.

import { ImportCollector } from "../../../codegen/index.js";
import type { FieldSpec, LinkField, NestedField, ResourceConfig } from "../config/schema.js";
import { isScalar } from "../config/schema.js";
import { pythonString } from "../python/literals.js";
import { type ModelRef, modelRef } from "../resource.js";
import type { SerializerFn, SerializerModule } from "./serializers.js";

/** The statement selecting a shape's columns, and the function building the shape from one of its rows. */
export class RowSerializerFn {
  readonly module: SerializerModule;
  /** Function name, e.g. `to_article_read_from_row`. */
  readonly name: string;
  /** The module constant holding the select, e.g. `ARTICLE_READ_ROWS`. */
  readonly statement: string;
  readonly schema: string;
  /** The dotted module of the schema class. */
  readonly schemaModule: string;
  readonly #select: string;
  readonly #body: string;
  readonly imports: ImportCollector;

  constructor(options: { module: SerializerModule; fn: SerializerFn; select: string; body: string; imports: ImportCollector }) {
    this.module = options.module;
    this.name = `${options.fn.name}_from_row`;
    this.statement = `${options.fn.name.replace(/^to_/, "").toUpperCase()}_ROWS`;
    this.schema = options.fn.schema.name;
    this.schemaModule = options.fn.schema.module.dotted;
    this.#select = options.select;
    this.#body = options.body;
    this.imports = options.imports;
  }

  /** Its columns as a write's `RETURNING` list: `*ARTICLE_READ_ROWS.selected_columns`. */
  get returning(): string {
    return `*${this.statement}.selected_columns`;
  }

  /** The Python of the constant and the function, as the serializers module holds them. */
  get code(): string {
    return [
      `# What ${this.schema} shows, as columns: lists select them instead of ORM objects.`,
      `${this.statement} = ${this.#select}`,
      "",
      "",
      `def ${this.name}(row: Sequence[Any]) -> ${this.schema}:`,
      `    """\`\`${this.schema}\`\` from a row that starts with the columns of \`\`${this.statement}\`\`."""`,
      `    return ${this.#body}`,
    ].join("\n");
  }
}

/** What a link shows of the resource it refers to: its schema, type, and the columns of its id and label. */
export interface LinkColumns {
  schema: string;
  schemaModule: string;
  type: string;
  model: ModelRef;
  id: string;
  /** Whether the id may be NULL in a row that exists (then it cannot tell a missing link). */
  idNullable: boolean;
  label: string;
  /** Whether the label is text already; else it is passed through `str()`, as the link serializer does. */
  labelIsText: boolean;
}

/** The link columns of a link field's target resource. */
export function linkColumns(target: ResourceConfig, names: { schema: string; schemaModule: string; type: string }): LinkColumns {
  const link = target.link!;
  const fieldNamed = (name: string) => target.fields.find((field) => field.name === name);
  const id = link.id ?? target.pk;
  const idField = fieldNamed(id);
  const label = link.name ?? link.id ?? target.pk;
  const labelField = fieldNamed(label);
  return {
    ...names,
    model: modelRef(target.model),
    id,
    idNullable: idField !== undefined && isScalar(idField) && idField.nullable === true,
    label,
    labelIsText: labelField !== undefined && (labelField.type === "str" || labelField.type === "email") && !labelField.nullable,
  };
}

/**
 * The row serializer of `fn`, the serializer of `fields` on `model`, or undefined when the
 * shape needs more than one select of columns: a collection, a nested object holding
 * another, a model met twice (its columns would need aliases), or a nested single object
 * whose presence no column tells (none of its fields is non-nullable).
 */
export function rowSerializer(options: {
  module: SerializerModule;
  model: ModelRef;
  fields: readonly FieldSpec[];
  fn: SerializerFn;
  link: (spec: LinkField) => LinkColumns;
}): RowSerializerFn | undefined {
  const { model, fields, fn } = options;
  const imports = new ImportCollector().addFrom("collections.abc", "Sequence").addFrom("typing", "Any").addFrom("sqlalchemy", "select").addFrom(model.module, model.importName);
  const columns: string[] = [];
  const joins: string[] = [];
  const joined = new Set<string>([`${model.module}.${model.name}`]);
  /** The position of `column` in the select, once added. */
  const column = (expression: string): string => `row[${columns.push(expression) - 1}]`;
  const args: string[] = [];
  for (const [index, spec] of fields.entries()) {
    const serialized = fn.fields[index];
    if (serialized === undefined || serialized.name !== spec.name) throw new Error(`bug: the serializer ${fn.name} does not follow its fields at "${spec.name}"`);
    if (isScalar(spec)) {
      args.push(`${serialized.name}=${column(`${model.local}.${spec.name}`)}`);
      continue;
    }
    if (spec.many) return undefined;
    const target = spec.type === "nested" ? modelRef(spec.model) : options.link(spec).model;
    const key = `${target.module}.${target.name}`;
    if (joined.has(key)) return undefined;
    joined.add(key);
    joins.push(`.outerjoin(${model.local}.${spec.name})`);
    imports.addFrom(target.module, target.importName);
    const built = spec.type === "nested" ? nestedValue(spec, serialized.nested as SerializerFn, target, column, imports) : linkValue(options.link(spec), column, imports);
    if (built === undefined) return undefined;
    args.push(`${serialized.name}=${serialized.nullable ? `${built.value} if ${built.presence} is not None else None` : built.value}`);
  }
  imports.addFrom(fn.schema.module.dotted, fn.schema.name);
  return new RowSerializerFn({
    module: options.module,
    fn,
    select: `select(${columns.join(", ")})${joins.join("")}`,
    body: `${fn.schema.name}(${args.join(", ")})`,
    imports,
  });
}

/** A nested single object from its columns, and the column that is NULL when there is none. */
function nestedValue(spec: NestedField, sub: SerializerFn, target: ModelRef, column: (expression: string) => string, imports: ImportCollector): { value: string; presence: string } | undefined {
  if (!spec.fields.every(isScalar)) return undefined;
  // Imported here: the serializer of objects that would import it may not be written.
  imports.addFrom(sub.schema.module.dotted, sub.schema.name);
  let presence: string | undefined;
  const args = spec.fields.map((field, index) => {
    const value = column(`${target.local}.${field.name}`);
    if (presence === undefined && !field.nullable) presence = value;
    return `${sub.fields[index]!.name}=${value}`;
  });
  if (presence === undefined) return undefined;
  return { value: `${sub.schema.name}(${args.join(", ")})`, presence };
}

/** A link from its target's id and label columns; the id is NULL when there is none. */
function linkValue(link: LinkColumns, column: (expression: string) => string, imports: ImportCollector): { value: string; presence: string } | undefined {
  if (link.idNullable) return undefined;
  imports.addFrom(link.schemaModule, link.schema);
  const id = column(`${link.model.local}.${link.id}`);
  const label = link.label === link.id ? id : column(`${link.model.local}.${link.label}`);
  return { value: `${link.schema}(type=${pythonString(link.type)}, id=${id}, label=${link.labelIsText ? label : `str(${label})`})`, presence: id };
}
