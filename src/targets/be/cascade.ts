// Settings that cascade: an operation entry's own value wins, then its resource's, its
// app's, then the project's (which may have a default). One rule, resolved here only, so every
// cascading setting (`require_auth`, `generate_tests`, `rate_limit`, `max_body_size`, `groups`, `opa`) behaves alike.

import type { BuildStore } from "../../codegen/index.js";
import type { ProjectConfig, RateLimitConfig, ResolvedApp } from "./config/schema.js";

/** The settings that cascade, with their types. */
export interface CascadingSettings {
  require_auth: boolean;
  generate_tests: boolean;
  max_body_size: number;
  /** `false` or unset: no limit. */
  rate_limit: RateLimitConfig | false | undefined;
  /** Only members of one of these groups may call the route; unset: no group check (the project sets none). */
  groups: string[] | undefined;
  /** Whether the route asks the OPA server of `auth.opa`; unset: it does not. */
  opa: boolean | undefined;
}

export type CascadingKey = keyof CascadingSettings;

type Level = { readonly [K in CascadingKey]?: CascadingSettings[K] };

/**
 * The value of `key` at the instance `instanceId` (an operation entry, a resource or an
 * app): the first level, from the instance up to the project, that sets it.
 * @example cascaded(ctx.store, ctx.instanceId, ctx.config, "require_auth") // false when the resource says so
 */
export function cascaded<K extends CascadingKey>(store: BuildStore, instanceId: string, project: ProjectConfig, key: K): CascadingSettings[K] {
  for (const level of levelsAt(store, instanceId)) {
    const value = level?.[key];
    if (value !== undefined) return value as CascadingSettings[K];
  }
  return (project as Level)[key] as CascadingSettings[K];
}

// The levels above an instance, per store: every operation asks for several settings.
const levelsByStore = new WeakMap<BuildStore, Map<string, readonly (Level | undefined)[]>>();

/** The operation entry, resource and app levels at or above `instanceId`, nearest first. */
function levelsAt(store: BuildStore, instanceId: string): readonly (Level | undefined)[] {
  let known = levelsByStore.get(store);
  if (!known) levelsByStore.set(store, (known = new Map()));
  let levels = known.get(instanceId);
  if (!levels) {
    levels = [
      store.ancestorOf(instanceId, "operation") as Level | undefined,
      store.ancestorOf(instanceId, "resource") as Level | undefined,
      (store.ancestorOf(instanceId, "app") as ResolvedApp | undefined)?.config,
    ];
    known.set(instanceId, levels);
  }
  return levels;
}

/**
 * Where the value of `key` at `instanceId` comes from, for messages: `"this operation"`,
 * `"its resource"`, `"its app"` or `"the project"`.
 */
export function cascadeSource(store: BuildStore, instanceId: string, key: CascadingKey): string {
  const levels: [string, Level | undefined][] = [
    ["this operation", store.ancestorOf(instanceId, "operation") as Level | undefined],
    ["its resource", store.ancestorOf(instanceId, "resource") as Level | undefined],
    ["its app", (store.ancestorOf(instanceId, "app") as ResolvedApp | undefined)?.config],
  ];
  return levels.find(([, level]) => level?.[key] !== undefined)?.[0] ?? "the project";
}
