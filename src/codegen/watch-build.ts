// What only a watch's build needs (incremental.ts), gathered as one module: it is imported
// when a watch first asks for it, so a run that is not a watch never loads it.
export { BuildMemory } from "./incremental.js";
export { buildIncrementally } from "./incremental-build.js";
export { ValidationMemory } from "./validation-memory.js";
