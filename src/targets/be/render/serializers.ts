// SerializerFn → `{module}/serializers/{name}.py`: explicit field-by-field construction of
// each read schema, one function per (sub-)schema.

import { FileFragment, type Fragment, ImportCollector, type RenderCtx, SnippetFragment } from "../../../codegen/index.js";
import type { SerializedField, SerializerFn } from "../operations/types.js";
import { wrapCall } from "../python/wrap.js";
import { resourceLabels } from "./labels.js";

export function renderSerializer(serializer: SerializerFn, ctx: RenderCtx): Fragment[] {
  const labels = resourceLabels(ctx);
  const imports = new ImportCollector().addFrom(serializer.schema.module, serializer.schema.name).addFrom(serializer.modelModule, serializer.modelClass);
  const argument = serializer.argument;
  const signature = wrapCall(`def ${serializer.name}`, [`${argument}: ${serializer.modelClass}`], ` -> ${serializer.schema.name}:`);
  const body = wrapCall(`return ${serializer.schema.name}`, serializer.fields.map((field) => `${field.name}=${valueOf(argument, field)}`), "", "    ");
  return [
    new FileFragment({ path: serializer.file, template: "serializers/module.py.njk", context: { label: labels.singular } }),
    new SnippetFragment({ path: serializer.file, slot: "functions", template: "serializers/function.py.njk", context: { signature, body }, imports }),
  ];
}

function valueOf(argument: string, field: SerializedField): string {
  const source = `${argument}.${field.name}`;
  if (!field.nested) return source;
  const sub = field.nested.name;
  if (field.many) {
    const item = field.nested.argument === argument ? `${argument}_item` : field.nested.argument;
    return `[${sub}(${item}) for ${item} in ${source}]`;
  }
  return field.nullable ? `${sub}(${source}) if ${source} is not None else None` : `${sub}(${source})`;
}
