// SchemaClass → `{module}/schemas/{name}.py`: one file per resource, one snippet per class.

import { FileFragment, type Fragment, type RenderCtx, SnippetFragment } from "../../../codegen/index.js";
import { pythonLiteral } from "../python/literals.js";
import type { Field, SchemaClass } from "../operations/types.js";
import { resourceLabels } from "./labels.js";

export function renderSchema(schema: SchemaClass, ctx: RenderCtx): Fragment[] {
  const labels = resourceLabels(ctx);
  const hasParams = labels.hasActionParams ? ", with the params of their actions" : "";
  return [
    new FileFragment({ path: schema.file, template: "schemas/module.py.njk", context: { doc: `Request and response schemas of ${labels.plural}${hasParams}.` } }),
    new SnippetFragment({
      path: schema.file,
      slot: "classes",
      template: "schemas/class.py.njk",
      context: {
        name: schema.name,
        doc: schema.doc,
        lines: schema.fields.map(fieldLine),
        reject_null: schema.rejectNull.map((name) => JSON.stringify(name)).join(", "),
      },
      imports: schema.imports,
    }),
  ];
}

/** `name: annotation = default`, with the description folded into `Field(...)`. */
function fieldLine(field: Field): string {
  const head = `${field.name}: ${field.annotation}`;
  if (field.description === undefined) return field.default === undefined ? head : `${head} = ${field.default}`;
  const description = `description=${pythonLiteral(field.description)}`;
  if (field.default === undefined) return `${head} = Field(${description})`;
  if (field.default.startsWith("Field(")) return `${head} = ${field.default.slice(0, -1)}, ${description})`;
  return `${head} = Field(default=${field.default}, ${description})`;
}
