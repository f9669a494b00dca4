// The `be_root` target's formatter module (its `formatter`): generated modules are what
// `ruff format` makes of them, whatever the names' lengths.

export { formatPythonFile as formatFile } from "../../formatters/python-layout/index.js";
