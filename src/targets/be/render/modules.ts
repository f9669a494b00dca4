// PythonModule → one file fragment: the module's template, with its imports formatted by
// the assembler into `{{ imports }}`.

import { FileFragment, type Fragment } from "../../../codegen/index.js";
import type { PythonModule } from "../operations/types.js";

export function renderPythonModule(module: PythonModule): Fragment[] {
  return [new FileFragment({ path: module.file, template: module.template, context: module.context, imports: module.imports })];
}
