// Import formatters come from package manifests (group `codegen.import_formatters`): the
// entry's name is the language, its export a formatter. Loading them once registers them
// in the process-wide table `ImportCollector.format` reads.

import { type ImportFormatter, importFormatterFor, registerImportFormatter } from "./imports.js";
import { entryPoints, loadEntryPoint } from "./plugins.js";

/** Registers every formatter declared by installed packages. */
export async function loadImportFormatters(options: { cwd?: string } = {}): Promise<void> {
  for (const entry of await entryPoints("codegen.import_formatters", options)) {
    if (importFormatterFor(entry.name)) continue; // the first package declaring a language wins
    const formatter = await loadEntryPoint(entry);
    if (typeof formatter !== "function") {
      throw new TypeError(`${entry.packageName}: codegen.import_formatters.${entry.name} is not a function`);
    }
    registerImportFormatter(entry.name, formatter as ImportFormatter);
  }
}
