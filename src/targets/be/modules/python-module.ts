// A whole Python module from one template, with its imports collected beside it (the
// assembler formats them into the template's `{{ imports }}`). Used for modules that are
// not a resource's: the `auth/` package.

import { FileFragment, type Fragment, ImportCollector } from "../../../codegen/index.js";

export class PythonModule {
  /** File path relative to the output directory. */
  readonly path: string;
  readonly template: string;
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;

  constructor(options: { path: string; template: string; context?: Record<string, unknown>; imports?: ImportCollector }) {
    this.path = options.path;
    this.template = options.template;
    this.context = options.context ?? {};
    this.imports = options.imports ?? new ImportCollector();
  }

  render(): Fragment[] {
    return [new FileFragment({ path: this.path, template: this.template, context: this.context, imports: this.imports })];
  }
}
