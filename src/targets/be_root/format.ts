// The `be_root` target's formatter module (its `formatter`): generated modules are what
// `ruff format` makes of them, whatever the names' lengths (src/formatters/ruff.ts).

export { formatPythonFile as formatFile, formatPythonFiles as formatAll } from "../../formatters/ruff.js";
