#!/usr/bin/env node
// The `codegen` command. V8's flags for the command line are set before its code loads
// (cli-main.ts): V8 compiles that code under them, and the built package keeps compiled code
// that only a process with the same flags can use (scripts/bundle.mjs).
import { setV8Flags } from "./cli-v8-flags.js";

setV8Flags(process.argv.slice(2));
const { main } = await import("./cli-main.js");
process.exitCode = await main(process.argv);
