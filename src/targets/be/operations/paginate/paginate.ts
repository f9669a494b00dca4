// `paginate` (modifier): keyset or offset pages and their bounds. Amends the list through
// `ListQuery.paginate`; a list without it pages by keyset, 50 rows by default, 100 at most.

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { PaginateConfig, type ProjectConfig } from "../../config/schema.js";
import { listHandler, modifiesList, onlyOnePerList } from "../modifier/context.js";

@operation("paginate", { scope: "modifier", dispatchOn: "type" })
export class Paginate {
  static Options = PaginateConfig;

  *validate(ctx: BuildContext<ProjectConfig>): Iterable<ValidationIssue> {
    if (modifiesList(ctx)) yield* onlyOnePerList(ctx, "paginate");
  }

  build(ctx: BuildContext<ProjectConfig>, options: PaginateConfig): unknown[] {
    listHandler(ctx).query.paginate(options);
    return [];
  }
}
