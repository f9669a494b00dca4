// `PageFile`: a generated file of the pages whose imports were collected while its code
// was written (see `Imports`); rendered into one `FileFragment`, so the assembler formats
// the import block from them.

import { FileFragment, type IfExists, ImportCollector, type RenderRegistry } from "../../../codegen/index.js";

export class PageFile {
  readonly path: string;
  readonly template: string;
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;
  readonly ifExists: IfExists;
  readonly banner: boolean;

  constructor(options: {
    path: string;
    template: string;
    context: Record<string, unknown>;
    imports?: ImportCollector;
    ifExists?: IfExists;
    banner?: boolean;
  }) {
    this.path = options.path;
    this.template = options.template;
    this.context = options.context;
    this.imports = options.imports ?? new ImportCollector();
    this.ifExists = options.ifExists ?? "overwrite";
    this.banner = options.banner ?? true;
  }
}

/** Registers the renderer of `PageFile`. */
export function registerPageRenderers(registry: RenderRegistry): void {
  registry.renders(PageFile, (file) => [
    new FileFragment({
      path: file.path,
      template: file.template,
      context: file.context,
      imports: file.imports,
      ifExists: file.ifExists,
      banner: file.banner,
    }),
  ]);
}
