// A file resource's routes (the `be` target's `resource.files()`, docs/be.md#files): its
// bytes live in S3-compatible storage, and the pages upload and download them through four
// routes beside its rows. Found by their paths and shapes, as every route of the pages is:
// `POST {prefix}/upload` answering `{id, upload_url, headers}`, `POST {prefix}/{pk}/complete`,
// `POST {prefix}/{pk}/download` answering `{download_url}`, and `POST {prefix}/{pk}/delete-file`.

import type { ApiAction, ApiOperation } from "./openapi.js";

export interface ApiFileRoutes {
  /** Declares a file (`{filename, content_type, size_bytes}`), answers where to `PUT` its bytes. */
  upload: ApiOperation;
  /** Says the bytes are in the bucket. */
  complete: ApiOperation;
  /** Answers a short-lived URL of the bytes. */
  download: ApiOperation;
  /** Deletes the bytes, then the row: the resource's delete, when it has no `DELETE`. */
  remove?: ApiOperation;
  /** The media types an upload may declare (the body's `content_type` enum), when it lists them. */
  contentTypes?: string[];
}

const has = (op: ApiOperation, schema: "body" | "response", names: string[]) => names.every((name) => op[schema]?.fields.some((field) => field.name === name) ?? false);

/** The file routes among a resource's actions, and the actions left; a resource without all three of upload, complete and download has none. */
export function fileRoutes(actions: readonly ApiAction[]): { files?: ApiFileRoutes; actions: ApiAction[] } {
  const find = (slug: string, target: ApiAction["target"], test: (op: ApiAction) => boolean) => actions.find((action) => action.slug === slug && action.target === target && test(action));
  const upload = find("upload", "collection", (op) => has(op, "body", ["filename", "content_type", "size_bytes"]) && has(op, "response", ["id", "upload_url", "headers"]));
  const complete = find("complete", "instance", (op) => op.body === undefined);
  const download = find("download", "instance", (op) => op.body === undefined && has(op, "response", ["download_url"]));
  if (!upload || !complete || !download) return { actions: [...actions] };
  const remove = find("delete-file", "instance", (op) => op.body === undefined && op.response === undefined);
  const routes = new Set<ApiAction>([upload, complete, download, ...(remove ? [remove] : [])]);
  const contentTypes = upload.body!.fields.find((field) => field.name === "content_type")?.choices?.map(String);
  return {
    files: { upload, complete, download, ...(remove && { remove }), ...(contentTypes && { contentTypes }) },
    actions: actions.filter((action) => !routes.has(action)),
  };
}
