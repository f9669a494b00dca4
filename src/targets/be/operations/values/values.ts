// `values` (kiln's `searchable: true` adds one): POST {prefix}/_values, the resource's rows as
// links, found by its `search` (else by the link's label), a page at a time, through the
// route's own session (runtime/discovery.py's `link_page`). A link builder of the user's
// (`link.builder`, async `(row, session)`) makes each link, given the signed-in user as kiln
// gives its session; without one, the resource's `to_{name}_link` does. Role ENDPOINT: the
// user, groups, rate limit, span and tests attach to it as to every route.

import { type BuildContext, ImportCollector, Name, operation } from "../../../../codegen/index.js";
import { z } from "zod";
import { type ProjectConfig, endpointKeys } from "../../config/schema.js";
import { Identifier } from "../../config/primitives.js";
import { cascaded } from "../../cascade.js";
import { resourceFiles } from "../../modules/files.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT, RouteHandler, RouteParam } from "../../modules/handler.js";
import { capitalize, linkNames } from "../../modules/read-shape.js";
import { sessionParam } from "../../modules/params.js";
import { operationId } from "../../resource.js";
import { kilnSession } from "../authz/authz.js";

/** An entry `{ name, type: "values" }`; `searchable: true` on a resource adds one named `values`. */
export const ValuesOptions = z
  .strictObject({
    name: Identifier,
    type: z.literal("values"),
    summary: endpointKeys.summary,
    require_auth: endpointKeys.require_auth,
    generate_tests: endpointKeys.generate_tests,
    max_body_size: endpointKeys.max_body_size,
    rate_limit: endpointKeys.rate_limit,
    groups: endpointKeys.groups,
    trace: endpointKeys.trace,
  })
  .meta({ id: "ValuesOptions", description: "Options of `values`: the resource's rows as links, searched (kiln's `searchable`)." });
export type ValuesOptions = z.output<typeof ValuesOptions>;

@operation("values", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class Values {
  static Options = ValuesOptions;

  static route(): Route {
    return { kind: "read", path: "/_values" };
  }

  build(ctx: BuildContext<ProjectConfig>, options: ValuesOptions): unknown[] {
    const { view, routes } = resourceFiles(ctx);
    const link = view.config.link!;
    const names = linkNames(view, view.config);
    const runtime = `${view.runtimePackage}.discovery`;
    const model = view.model.local;
    const imports = new ImportCollector()
      .addFrom("sqlalchemy", "select")
      .addFrom(runtime, "LinkPage", "link_page")
      .addFrom(view.model.module, view.model.importName)
      .addFrom(names.schemaModule, names.schema);
    const builder = link.builder === undefined ? undefined : Name.fromDotted(link.builder)[0];
    if (builder === undefined) imports.addFrom(names.serializerModule, names.serializer);
    else imports.add(builder);
    // The label orders the rows and, without a search, finds them: the link's name, else its id as text.
    if (link.name === undefined) imports.addFrom("sqlalchemy", "String", "cast");
    const label = link.name === undefined ? `cast(${model}.${link.id ?? view.pk}, String)` : `${model}.${link.name}`;
    // kiln's session of who asks: `None` when nobody does, or may not (a public route).
    const session = (handler: RouteHandler): string => {
      if (handler.currentUser === "None") return "None";
      const signedIn = kilnSession(ctx.config, imports);
      return handler.user === undefined ? `None if current_user is None else ${signedIn}` : signedIn;
    };
    const search = view.config.search === undefined ? undefined : routes.search(view.config.search).name;
    const name = `list_${view.name}_links`;
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: "POST",
      route: Values.route(),
      statusCode: 200,
      summary: options.summary ?? `${capitalize(view.labelPlural)} as links, best first, a page at a time.`,
      responseModel: `LinkPage[${names.schema}]`,
      params: [new RouteParam({ name: "body", annotation: "LinkSearch", imports: new ImportCollector().addFrom(runtime, "LinkSearch") })],
      session: sessionParam(view),
      maxBodySize: cascaded(ctx.store, ctx.instanceId, ctx.config, "max_body_size"),
      // A builder of the user's is given who asks, signed in or not.
      asksWhoIsSignedIn: builder !== undefined,
      imports,
      body: {
        code: (handler) => {
          const make = link.builder === undefined ? names.serializer : `lambda row: ${link.builder}(row, ${session(handler)})`;
          const args = ["session", "body", `select(${model})`, `key=${model}.${view.pk}`, `label=${label}`, `link=${make}`];
          if (search !== undefined) args.push(`search=${search}`);
          return `    return await link_page(${args.join(", ")})\n`;
        },
      },
    });
    // Ahead of the other routes: a text key's `POST /{pk}/…` routes never take it.
    return [routes.addAhead(handler)];
  }
}
