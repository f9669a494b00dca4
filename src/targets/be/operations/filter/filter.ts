// `filter` (modifier): the fields a list can be filtered by. Validates each field against
// the resource; amends the list through `ListQuery.filterBy`, which gives it typed query
// parameters (`?rating__gte=4`), `POST {prefix}/search` and a place in `/_filters`. The
// search body's classes are built here: one per field and value shape, the `and`/`or`
// groups and the union that tells them apart.

import { type BuildContext, ImportCollector, Name, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { FilterConfig, type ProjectConfig } from "../../config/schema.js";
import { resourceRoutes, routesAt } from "../../modules/endpoint.js";
import { resourceFiles } from "../../modules/files.js";
import { Field, SchemaClass, TypeAlias } from "../../modules/schemas.js";
import { pythonString } from "../../python/literals.js";
import { type ListHandler, searchPathOf } from "../list/list-handler.js";
import type { FilterField } from "../list/query.js";
import { listHandler, modifiedApp, modifiedResource, modifiesList, onlyOnePerList } from "../modifier/context.js";
import { filterProblems, resolveFilterField, structuredFields } from "./resolve.js";

@operation("filter", { scope: "modifier", dispatchOn: "type" })
export class Filter {
  static Options = FilterConfig;

  *validate(ctx: BuildContext<ProjectConfig>, options: FilterConfig): Iterable<ValidationIssue> {
    if (!modifiesList(ctx)) return;
    yield* onlyOnePerList(ctx, "filter");
    const resource = modifiedResource(ctx);
    const app = modifiedApp(ctx);
    for (const [index, field] of structuredFields(options, resource, app).entries()) {
      const given = options.fields?.[index];
      if (typeof given === "string") {
        // kiln's form: a bare name, whose problems are the name's.
        if (!resource.fields.some((own) => own.name === given)) {
          yield { path: ["fields", index], message: `"${given}" is not a field of this resource; name one of its fields, or give { name, values, type }` };
          continue;
        }
        for (const problem of filterProblems(field, resource, app)) yield { path: ["fields", index], message: problem.message };
        continue;
      }
      for (const problem of filterProblems(field, resource, app)) yield { path: ["fields", index, problem.key], message: problem.message };
    }
    // The search route sits below the list's own path; any entry of the resource declaring that path clashes.
    const searchPaths = new Set(routesAt(ctx.store, ctx.store.ancestorIdOf(ctx.instanceId, "operation")!).map((route) => searchPathOf(route.path)));
    const clash = resourceRoutes(ctx.store, ctx.store.ancestorIdOf(ctx.instanceId, "resource")!).find(({ routes }) => routes.some((route) => searchPaths.has(route.path)));
    if (clash !== undefined) {
      yield { path: ["type"], message: `a filtered list serves POST .../search, a path the entry "${clash.entry.name}" declares too; give that entry another path (an action, another slug)` };
    }
  }

  build(ctx: BuildContext<ProjectConfig>, options: FilterConfig): unknown[] {
    const resource = modifiedResource(ctx);
    const app = modifiedApp(ctx);
    const { runtimePackage } = resourceFiles(ctx).view;
    const fields = structuredFields(options, resource, app).map((field) => resolveFilterField(field, resource, app, runtimePackage));
    const handler = listHandler(ctx);
    handler.query.filterBy(fields);
    addSearchSchemas(ctx, handler, fields);
    return [];
  }
}

/** One value shape of a field's operators: one condition class each. */
interface Shape {
  suffix: "Filter" | "InFilter" | "NullFilter";
  ops: (op: string) => boolean;
  value: (annotation: string) => { annotation: string; default?: string };
}

const SHAPES: readonly Shape[] = [
  { suffix: "Filter", ops: (op) => op !== "in" && op !== "is_null", value: (annotation) => ({ annotation }) },
  { suffix: "InFilter", ops: (op) => op === "in", value: (annotation) => ({ annotation: `Annotated[list[${annotation}], InValues]` }) },
  { suffix: "NullFilter", ops: (op) => op === "is_null", value: () => ({ annotation: "DbBool" }) },
];

function addSearchSchemas(ctx: BuildContext<ProjectConfig>, handler: ListHandler, fields: readonly FilterField[]): void {
  const { schemas, view } = resourceFiles(ctx);
  const prefix = handler.names.prefix;
  const union = `${prefix}Filter`;
  const members: string[] = [];
  const literal = new ImportCollector().addFrom("typing", "Literal");
  for (const field of fields) {
    for (const shape of SHAPES) {
      const ops = field.operators.filter(shape.ops);
      if (ops.length === 0) continue;
      const name = `${prefix}${new Name(field.name).pascal}${shape.suffix}`;
      const value = shape.value(field.bodyAnnotation);
      const imports = new ImportCollector().update(literal).update(field.imports);
      if (shape.suffix === "NullFilter") imports.addFrom(`${view.runtimePackage}.values`, "DbBool");
      if (shape.suffix === "InFilter") imports.addFrom("typing", "Annotated").addFrom(`${view.runtimePackage}.filters`, "InValues");
      schemas.add(
        new SchemaClass({
          module: schemas,
          name,
          doc: `A condition on \`\`${field.name}\`\`${shape.suffix === "InFilter" ? ": one of the values" : shape.suffix === "NullFilter" ? ": whether it is null" : ""}.`,
          fields: [
            new Field({ name: "field", annotation: `Literal[${pythonString(field.name)}]` }),
            new Field({ name: "op", annotation: `Literal[${ops.map(pythonString).join(", ")}]` }),
            new Field({ name: "value", ...value }),
          ],
          imports,
          forbidExtra: true,
        }),
      );
      const tag = shape.suffix === "InFilter" ? `${field.name}:in` : shape.suffix === "NullFilter" ? `${field.name}:is_null` : field.name;
      members.push(`Annotated[${name}, Tag(${pythonString(tag)})]`);
    }
  }
  const group = (name: string, key: "and" | "or", doc: string) =>
    schemas.add(
      new SchemaClass({
        module: schemas,
        name,
        doc,
        fields: [new Field({ name: `${key}_`, annotation: `list[${pythonString(union)}]`, default: `Field(alias=${pythonString(key)}, min_length=1)` })],
        imports: new ImportCollector(),
        forbidExtra: true,
      }),
    );
  const all = group(`${prefix}AllOf`, "and", `Conditions on ${view.labelPlural} that must all hold: \`\`{"and": [...]}\`\`.`);
  const any = group(`${prefix}AnyOf`, "or", `Conditions on ${view.labelPlural} of which one must hold: \`\`{"or": [...]}\`\`.`);
  schemas.add(
    new TypeAlias({
      module: schemas,
      name: union,
      comment: `A condition on ${view.labelPlural} ({"field", "op", "value"}), or an "and" / "or" group of them.`,
      expression: `Annotated[${[`Annotated[${all.name}, Tag("and")]`, `Annotated[${any.name}, Tag("or")]`, ...members].join(" | ")}, FilterUnion]`,
      imports: new ImportCollector().addFrom("typing", "Annotated").addFrom("pydantic", "Tag").addFrom(`${view.runtimePackage}.filters`, "FilterUnion"),
    }),
  );
  // The tree's bounds (runtime/filters.py) are checked, and described, by `TreeBounds`.
  const imports = new ImportCollector().addFrom("typing", "Annotated").addFrom(`${view.runtimePackage}.filters`, "TreeBounds");
  schemas.add(
    new SchemaClass({
      module: schemas,
      name: handler.names.searchBody,
      doc: `The body of \`\`POST ${view.routePrefix}${handler.searchPath}\`\`: conditions, order and page.`,
      fields: () => [new Field({ name: "filter", annotation: `Annotated[${union} | None, TreeBounds()]`, default: "None" }), ...handler.searchFields(imports)],
      imports,
      forbidExtra: true,
    }),
  );
}
