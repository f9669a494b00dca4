// What an operation sees while it builds: the whole config, the scope instance it runs at,
// and the store of everything built so far. One frozen context per instance, shared by the
// operations that run there.
import type { OperationMeta } from "./operation.js";
import type { Scope } from "./scopes.js";
import type { BuildStore } from "./store.js";

/**
 * Context passed to `Operation.build` and `Operation.when`.
 * @typeParam C type of the whole (validated) config
 */
export interface BuildContext<C = any> {
  /** The whole validated config. */
  config: C;
  /** Scope the operation runs at. */
  scope: Scope;
  /** The scope instance: the config object at `configPath` (the config itself at the project scope). */
  instance: any;
  /** Instance id, e.g. `project.apps.0.resources.2`. */
  instanceId: string;
  /** Where the user wrote the instance, e.g. `apps[0].config.resources[2]` (`""` for the root). */
  configPath: string;
  /** Instances and outputs of this build, including outputs of operations that ran earlier. */
  store: BuildStore;
  /** Import prefix of the generated package. @default "" */
  packagePrefix: string;
  /** Every operation registered for the target, in registration order (for validation rules that depend on them). */
  operations: readonly OperationMeta[];
}
