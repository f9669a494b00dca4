// Config schemas may reshape what the user wrote (a single-app shorthand becomes one app).
// An object carrying `sourcePath` tells the engine which config path it came from, so
// errors still name the path as written in the user's file.

/** Symbol key holding the config path (e.g. `""` for the root) an object was normalised from. */
export const sourcePath: unique symbol = Symbol.for("codegen.sourcePath") as never;
