// A file resource's pages (docs/fe.md, Files): its upload page at `/<key>/new`, where a create
// form would be, and the download button its list rows and its record carry. Both call the
// backend's file routes through the typed client and `runtime/files.tsx`.

import { Imports, jsxAttr, member, tsString } from "./code.js";
import type { PageFiles, PageResource } from "./model.js";
import { CLIENT, helpersModule, pageModule, pathFn, titleFn } from "./names.js";
import type { PageFile } from "./output.js";

type FileOf = (resource: PageResource, module: string, template: string, imports: Imports, context: Record<string, unknown>) => PageFile;

/** The upload page: the file input, its progress and errors (`UploadForm`), then the new row's page. */
export function uploadPageFile(resource: PageResource, files: PageFiles, file: FileOf): PageFile {
  const imports = new Imports(resource.key);
  imports.from("@tanstack/react-query", "useQueryClient");
  imports.from("react-router", "useNavigate");
  imports.use("runtime/files", "UploadForm");
  imports.type("runtime/files", "DeclaredFile");
  imports.use("runtime/messages", "messages");
  return file(resource, pageModule(resource, "Upload"), "upload.tsx.njk", imports, {
    upload_path: `/${resource.key}/new`,
    accept: files.accept === undefined ? "" : jsxAttr("accept", files.accept),
    upload_fn: imports.use(CLIENT, files.upload.fn),
    body_type: imports.type(CLIENT, files.upload.bodyType),
    complete_fn: imports.use(CLIENT, files.complete.fn),
    path_fn: imports.use(helpersModule(resource), pathFn(resource)),
    key: tsString(resource.keyField),
    key_value: resource.keyKind === "int" ? "Number(id)" : "id",
  });
}

/**
 * The download button of the row in scope (`resource.camel`), saving the bytes under the file's
 * own name (else its title); none before the bytes are in (`uploaded_at` still null).
 */
export function downloadButton(resource: PageResource, files: PageFiles, imports: Imports): string {
  const row = resource.camel;
  const button = imports.use("runtime/files", "DownloadButton");
  const name = files.nameField ? `${member(row, files.nameField)} ?? ${imports.use(helpersModule(resource), titleFn(resource))}(${row})` : `${imports.use(helpersModule(resource), titleFn(resource))}(${row})`;
  const ticket = `async () => (await ${imports.use(CLIENT, files.download.fn)}({ path: { pk: ${member(row, resource.keyField)} }, throwOnError: true })).data`;
  const element = `<${button} filename={${name}} ticket={${ticket}} />`;
  return files.storedField ? `{${member(row, files.storedField)} !== null && ${element}}` : element;
}
