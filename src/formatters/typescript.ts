// TypeScript import formatter: one `import` statement per module, packages before relative
// paths, names sorted, so a generated file's import block is stable across runs.
// A side-effect import is dropped when the same module is also imported by name.

import type { ImportCollector, ImportFormatter } from "../codegen/imports.js";

/**
 * Formats imports as `import "m";` (side effect) and `import { a, b } from "m";` lines
 * (`import type { A } from "m";` when every name is a `type` one), sorted by module with
 * relative (`./`, `../`) modules last. No trailing newline.
 *
 * @example
 * typescriptImports(new ImportCollector().addFrom("./client.js", "api").addFrom("react", "useState"), {});
 * // 'import { useState } from "react";\nimport { api } from "./client.js";'
 */
export const typescriptImports: ImportFormatter = (collector: ImportCollector): string => {
  const named = new Map(collector.sortedFromImports);
  const modules = new Set([...collector.bareModules, ...named.keys()]);
  return [...modules]
    // Packages first, relative paths last.
    .sort((a, b) => Number(a.startsWith(".")) - Number(b.startsWith(".")) || compareText(a, b))
    .map((module) => {
      const names = named.get(module);
      if (!names) return `import ${JSON.stringify(module)};`;
      const sorted = names.sort(compareNames);
      // Only types: `import type`, which leaves no import behind at run time.
      if (sorted.every((name) => TYPE_ONLY.test(name))) {
        return `import type { ${sorted.map((name) => name.replace(TYPE_ONLY, "")).join(", ")} } from ${JSON.stringify(module)};`;
      }
      return `import { ${sorted.join(", ")} } from ${JSON.stringify(module)};`;
    })
    .join("\n");
};

const TYPE_ONLY = /^type\s+/;

/** Orders `type Foo` by `Foo`, so type-only names sit among the values. */
function compareNames(a: string, b: string): number {
  return compareText(a.replace(TYPE_ONLY, ""), b.replace(TYPE_ONLY, "")) || compareText(a, b);
}

/** Case-insensitive first (as editors' organise-imports does), exact second for a total order. */
function compareText(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
