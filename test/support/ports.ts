/**
 * Free TCP ports for servers started by tests: the product's own helper (`codegen dev`
 * picks its database's port with it).
 *
 * The port is free when this resolves; a test binds it right away, so the window
 * for another process to take it is small.
 */
export { freePort } from "../../src/dev/processes.js";
