// `order` (modifier): `?order_by=` over declared fields of the resource, and the default
// order; the primary key ends every order so it is total. Amends the list through
// `ListQuery.orderBy`.

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { OrderConfig, type ProjectConfig } from "../../config/schema.js";
import { listHandler, modifiedResource, modifiesList, onlyOnePerList } from "../modifier/context.js";

@operation("order", { scope: "modifier", dispatchOn: "type" })
export class Order {
  static Options = OrderConfig;

  *validate(ctx: BuildContext<ProjectConfig>, options: OrderConfig): Iterable<ValidationIssue> {
    if (!modifiesList(ctx)) return;
    yield* onlyOnePerList(ctx, "order");
    const fields = modifiedResource(ctx).fields;
    for (const [index, name] of options.fields.entries()) {
      const field = fields.find((candidate) => candidate.name === name);
      if (field === undefined) yield { path: ["fields", index], message: `"${name}" is not a field of this resource; order_by names fields it shows` };
      else if (field.type === "nested" || field.type === "json") yield { path: ["fields", index], message: `"${name}" is ${field.type === "json" ? "a json" : "a nested"} field; only scalar fields can be sorted` };
    }
  }

  build(ctx: BuildContext<ProjectConfig>, options: OrderConfig): unknown[] {
    const fields = modifiedResource(ctx).fields;
    listHandler(ctx).query.orderBy({
      fields: options.fields.map((name) => ({ name, nullable: fields.find((field) => field.name === name)?.nullable ?? false })),
      default: options.default === undefined ? [] : [`${options.default_dir === "desc" ? "-" : ""}${options.default}`],
    });
    return [];
  }
}
