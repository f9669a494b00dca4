// Python's `fnmatch.fnmatchcase`, for `--force-paths`: globs matched against paths relative to
// the output directory. Compiled to a regular expression once; an invalid pattern is a
// GenerationError naming it, never a crash.

import { GenerationError } from "./errors.js";

/**
 * Python's `fnmatch.fnmatchcase`: `*` matches any run of characters including `/`, `?` one
 * character, `[seq]` one character in seq, `[!seq]` one not in it. Other characters match themselves.
 *
 * @throws GenerationError for a pattern with a reversed character range (`[z-a]`).
 * @example fnmatch("src/app/main.tsx", "src/*.tsx"); // true
 */
export function fnmatch(filePath: string, pattern: string): boolean {
  return globToRegExp(pattern).test(filePath);
}

/**
 * A `--force-paths` glob, compiled; `./README.md` names the same file as `README.md`.
 * @throws GenerationError naming the option and the pattern when it is invalid.
 */
export function compileForcePattern(pattern: string): RegExp {
  try {
    return globToRegExp(pattern.replace(/^(\.\/)+/, ""));
  } catch (error) {
    if (error instanceof GenerationError) throw new GenerationError(`--force-paths: ${error.message}`);
    throw error;
  }
}

function globToRegExp(pattern: string): RegExp {
  let source = "";
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i++];
    if (char === "*") {
      source += ".*";
      while (pattern[i] === "*") i++;
    } else if (char === "?") {
      source += ".";
    } else if (char === "[") {
      // As in fnmatch, a `]` right after `[` or `[!` is a member, and an unclosed `[` is literal.
      let end = i;
      if (pattern[end] === "!") end++;
      if (pattern[end] === "]") end++;
      end = pattern.indexOf("]", end);
      if (end < 0) {
        source += "\\[";
        continue;
      }
      const body = pattern.slice(i, end);
      i = end + 1;
      const negated = body.startsWith("!");
      const members = negated ? body.slice(1) : body;
      checkRanges(members, pattern);
      const escaped = members.replace(/[\\\]^[]/g, "\\$&");
      source += negated ? `[^${escaped}]` : `[${escaped}]`;
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  try {
    return new RegExp(`^${source}$`, "su");
  } catch {
    throw new GenerationError(`invalid glob pattern ${JSON.stringify(pattern)}`);
  }
}

/** Refuses a range whose end comes before its start, naming it. */
function checkRanges(members: string, pattern: string): void {
  const chars = [...members];
  for (let k = 0; k + 2 < chars.length; k++) {
    if (chars[k + 1] !== "-") continue;
    const [start, end] = [chars[k]!, chars[k + 2]!];
    if (start.codePointAt(0)! > end.codePointAt(0)!) {
      throw new GenerationError(
        `invalid glob pattern ${JSON.stringify(pattern)}: the character range "${start}-${end}" is reversed (write "${end}-${start}")`,
      );
    }
    k += 2;
  }
}
