// What a Python program that failed said, in one line: `codegen dev` tells why the backend
// stopped, or why the models do not import, without the traceback's forty lines.

import path from "node:path";

/** A log line of uvicorn's (`ERROR:    …`), as opposed to an exception's (`ValueError: …`). */
const LOG_LINE = /^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL|TRACE):\s+/;
/** The last line of a traceback: the exception's (dotted) class name and its message. */
const EXCEPTION_LINE = /^(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*): (.+)$/;
/** A frame of a traceback: its file and line. */
const FRAME_LINE = /^\s*File "([^"]+)", line (\d+)/;
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * One line saying why a Python program ended, from its error output: the last exception
 * (its class without the module, its message, the innermost frame of the project's code),
 * else the last error uvicorn logged, else its last line.
 * @example whyItStopped(["Traceback …", '  File "/p/shop/models.py", line 3', "NameError: name 'x' is not defined"], "/p")
 * // → "NameError: name 'x' is not defined (shop/models.py, line 3)"
 */
export function whyItStopped(output: readonly string[], root: string): string {
  const lines = output.map((line) => line.replace(ANSI, "").trimEnd()).filter((line) => line !== "");
  const last = lines.findLastIndex((line) => !LOG_LINE.test(line) && EXCEPTION_LINE.test(line));
  if (last >= 0) {
    const [, name, message] = EXCEPTION_LINE.exec(lines[last]!)!;
    const frame = lines
      .slice(0, last)
      .map((line) => FRAME_LINE.exec(line))
      .findLast((found) => found !== null && !path.relative(root, found[1]!).startsWith("..") && !found[1]!.includes(`${path.sep}site-packages${path.sep}`));
    return `${name}: ${message}${frame ? ` (${path.relative(root, frame[1]!)}, line ${frame[2]})` : ""}`;
  }
  const logged = lines.findLast((line) => /^(?:ERROR|CRITICAL):/.test(line) && !/Application startup failed/.test(line));
  return (logged ?? lines.at(-1) ?? "it printed nothing").replace(LOG_LINE, "");
}
