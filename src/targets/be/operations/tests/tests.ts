// The generated pytest suites (`generate_tests`, cascading operation → resource → app →
// project). Three operations: `test_suite` (app scope) makes the app's conftest when any of
// its entries has tests; `test_module` (resource scope) makes the resource's test file;
// `tests` (operation scope) runs after `auth`, reads the entry's handler (its final
// dependencies decide the 401 tests) and adds its tests, and the factories of create entries.

import { type BuildContext, StaticFile, operation } from "../../../../codegen/index.js";
import { cascaded } from "../../cascade.js";
import { type ProjectConfig, type ResolvedApp, withArticle } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import { creatingEntry, readsRowAtItsUrl } from "../../modules/endpoint.js";
import { docstringText } from "../../python/literals.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { type TestTarget, type TestedOperation, endpointTests } from "./cases.js";
import { hiddenRowTests, showsHiddenRows } from "./visibility.js";
import { factoryFixtures } from "./fixtures.js";
import { TestModule } from "./outputs.js";
import type { ReferenceKeys } from "./samples.js";
import { appHasTests, buildConftest, creatable } from "./suite.js";

@operation("test_suite", { scope: "app" })
export class TestSuite {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return appHasTests(ctx.store, ctx.instanceId, ctx.config);
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return [buildConftest(ctx), ...testPackages(ctx.instance as ResolvedApp)];
  }
}

// `{module}/__init__.py` and `{module}/tests/__init__.py`: pytest (in its default import
// mode) names a test module after the packages above it, so two apps' `test_comment.py`
// become `content.tests.test_comment` and `community.tests.test_comment`, not one name twice.
function testPackages(app: ResolvedApp): StaticFile[] {
  const module = app.config.module;
  const file = (path: string, doc: string) => new StaticFile({ path, template: "operations/tests/templates/package.py.njk", context: { doc: docstringText(doc) } });
  return [
    file(`${module}/__init__.py`, `The generated \`\`${module}\`\` app: its schemas, serializers, routes and tests.`),
    file(`${module}/tests/__init__.py`, `Generated tests of the \`\`${module}\`\` app; run them with pytest.`),
  ];
}

@operation("test_module", { scope: "resource", requires: ["resource_files"] })
export class TestModuleOperation {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return appHasTests(ctx.store, ctx.instanceId, ctx.config);
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const { view } = resourceFiles(ctx);
    const app = ctx.store.ancestorOf(ctx.instanceId, "app") as ResolvedApp;
    const path = `${app.prefix}${view.routePrefix}`;
    return [
      new TestModule(`${app.config.module}/tests/test_${view.name}.py`, {
        doc: `Tests of the ${view.label} routes under \`\`${path}\`\`, generated from the config.`,
        path,
        article: withArticle(view.label),
      }),
    ];
  }
}

@operation("tests", { scope: "operation", requires: ["auth"], requiresRoles: [ENDPOINT] })
export class Tests {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return appHasTests(ctx.store, ctx.instanceId, ctx.config);
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const [handler] = ctx.store.outputsUnder(ctx.instanceId, RouteHandler);
    if (handler === undefined) return [];
    const { view } = resourceFiles(ctx);
    const app = ctx.store.ancestorOf(ctx.instanceId, "app") as ResolvedApp;
    const resourceId = ctx.store.ancestorIdOf(ctx.instanceId, "resource")!;
    const keys: ReferenceKeys = (name) => {
      const target = app.config.resources.find((resource) => resource.name === name);
      if (target === undefined) throw new Error(`bug: references "${name}" passed the config checks but names no resource`);
      return { pk: target.pk, pkType: target.pk_type };
    };
    const path = `${app.prefix}${view.routePrefix}`;
    // The first entry whose route creates rows yields the resource's factories, which the app's conftest lists.
    const creating = creatingEntry(ctx.store, resourceId);
    const fixtures = creating?.id === ctx.instanceId ? factoryFixtures(view, path, keys, creating.entry) : [];
    if (!cascaded(ctx.store, ctx.instanceId, ctx.config, "generate_tests")) return fixtures;
    const target: TestTarget = { view, path, canCreate: creatable(view.config, creating?.entry), fetchesRow: readsRowAtItsUrl(ctx.store, resourceId), keys };
    const module = ctx.store.outputUnderAncestor(resourceId, "resource", TestModule);
    const own = ownTests(ctx);
    const hidden = showsHiddenRows(ctx.config, target);
    // Decided when the module renders: a list's modifiers, which shape its tests, run after this operation.
    module.defer(() => [...endpointTests(target, handler, own), ...(hidden ? hiddenRowTests(target, handler) : [])]);
    return fixtures;
  }
}

/** The endpoint operation at the entry that writes its own tests (`static tests`), with its options. */
function ownTests(ctx: BuildContext): { cls: TestedOperation; options: unknown } | undefined {
  const own = ctx.store.operationsAt(ctx.instanceId).find(({ meta, cls }) => meta.role === ENDPOINT && typeof (cls as Partial<TestedOperation>).tests === "function");
  return own && { cls: own.cls as unknown as TestedOperation, options: own.options };
}
