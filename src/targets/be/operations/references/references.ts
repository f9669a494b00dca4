// `references` (app scope, validation only): the `references` of an app's fields name
// resources whose rows tests can make first, and no cycle of required ones (the rules are in
// config/references.ts). Which entry of a resource makes rows is what its operation declares
// (`Route.creates`), so a package's operation counts as a built-in's does.

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { type Creatable, creatableIssues } from "../../config/references.js";
import type { ProjectConfig, ResolvedApp } from "../../config/schema.js";
import { creatingEntry } from "../../modules/endpoint.js";

@operation("references", { scope: "app" })
export class References {
  validate(ctx: BuildContext<ProjectConfig>): Iterable<ValidationIssue> {
    const app = ctx.instance as ResolvedApp;
    const resources = ctx.store.children(ctx.instanceId, { childScope: "resource" }).map(([id], index): Creatable => {
      const resource = app.config.resources[index]!;
      const creating = creatingEntry(ctx.store, id);
      const entries = ctx.store.children(id, { childScope: "operation" });
      return { ...resource, creates: creating && entries.findIndex(([entryId]) => entryId === creating.id) };
    });
    // The shorthand's app is the project itself: its resources are at `resources`, as written.
    return creatableIssues(resources, ctx.config.single_app ? ["resources"] : ["config", "resources"]);
  }

  build(): unknown[] {
    return [];
  }
}
