// Finds where a text stops being JSON, for config errors users can act on. Node's own
// messages vary by version and often give no position at all ("Unexpected token '}', …"),
// so the loader re-reads a text JSON.parse rejected with this small strict scanner.

/** Where a JSON text goes wrong: 1-based line and column, and what was found there. */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  /** `unexpected "}"`, `unexpected end of file`, … */
  reason: string;
}

/** Thrown inside the scanner to stop at an offset. */
class Stop {
  constructor(readonly at: number) {}
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX = /^[0-9a-fA-F]$/;

/**
 * The first place `text` breaks JSON's grammar (RFC 8259), or undefined when it is valid JSON.
 * @example locateJsonError('{\n  "a": 1,\n}'); // { line: 3, column: 1, reason: 'unexpected "}"' }
 */
export function locateJsonError(text: string): JsonSyntaxProblem | undefined {
  const at = errorOffset(text);
  if (at === undefined) return undefined;
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = at - before.lastIndexOf("\n");
  const reason = at >= text.length ? "unexpected end of file" : `unexpected ${JSON.stringify(text[at])}`;
  return { line, column, reason };
}

function errorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (at = i): never => {
    throw new Stop(at);
  };
  const skipWhitespace = (): void => {
    while (i < text.length && WHITESPACE.has(text[i])) i++;
  };
  const expect = (char: string): void => {
    if (text[i] !== char) fail();
    i++;
  };
  const literal = (word: string): void => {
    for (const char of word) expect(char);
  };
  const string = (): void => {
    expect('"');
    for (;;) {
      if (i >= text.length) fail();
      const char = text[i];
      if (char === '"') {
        i++;
        return;
      }
      if (char < " ") fail();
      if (char !== "\\") {
        i++;
        continue;
      }
      const escaped = text[++i];
      if (escaped === "u") {
        for (let k = 1; k <= 4; k++) if (!HEX.test(text[i + k] ?? "")) fail(i + k);
        i += 5;
      } else if (escaped !== undefined && ESCAPES.has(escaped)) {
        i++;
      } else {
        fail();
      }
    }
  };
  const number = (): void => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail();
    i += match![0].length;
  };
  const value = (): void => {
    skipWhitespace();
    const char = text[i];
    if (char === "{") {
      i++;
      skipWhitespace();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        skipWhitespace();
        string();
        skipWhitespace();
        expect(":");
        value();
        skipWhitespace();
        if (text[i] === "}") {
          i++;
          return;
        }
        expect(",");
      }
    } else if (char === "[") {
      i++;
      skipWhitespace();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        skipWhitespace();
        if (text[i] === "]") {
          i++;
          return;
        }
        expect(",");
      }
    } else if (char === '"') {
      string();
    } else if (char === "t") {
      literal("true");
    } else if (char === "f") {
      literal("false");
    } else if (char === "n") {
      literal("null");
    } else if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) {
      number();
    } else {
      fail();
    }
  };

  try {
    value();
    skipWhitespace();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return error.at;
    // Nesting deeper than the call stack: no position to offer.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
