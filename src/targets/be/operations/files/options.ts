// Options of the file operations (`file_upload`, `file_complete`, `file_download`,
// `file_delete`): an endpoint entry's keys that concern who may call the route, plus, on the
// upload, what it accepts. `resource.files()` in `be/resources/presets.libsonnet` writes all four.

import { z } from "zod";
import { GroupList, GuardPath } from "../../config/authz.js";
import { HookConvention } from "../../config/hooks.js";
import { kilnKeys } from "../../config/kiln.js";
import { OpaSetting } from "../../config/opa.js";
import { Identifier, maxBodySizeAt } from "../../config/primitives.js";
import { RateLimitSetting } from "../../config/rate-limit.js";

/** S3's largest single `PUT`: the default and the ceiling of `max_size`. */
export const S3_SINGLE_PUT_BYTES = 5 * 1024 ** 3;

/** The keys every file entry takes. */
const fileEntryKeys = {
  name: Identifier.meta({ description: "The entry's name; its slug is the route's last segment (`upload`, `delete_file` → `delete-file`)." }),
  summary: z.string().optional().meta({ description: "The endpoint's summary in OpenAPI." }),
  require_auth: z.boolean().optional().meta({ description: "Whether the route requires a signed-in user. Default: the resource's, else the app's, else the project's." }),
  generate_tests: z.boolean().optional().meta({ description: "Generate tests for this endpoint. Default: the resource's, else the app's, else the project's." }),
  rate_limit: RateLimitSetting.optional(),
  groups: GroupList.optional(),
  opa: OpaSetting.optional(),
  can: GuardPath.optional(),
  convention: HookConvention.optional(),
  ...kilnKeys("operation"),
};

/** Options of `file_complete`, `file_download` and `file_delete`. */
export const FileRowOptions = z.strictObject({
  ...fileEntryKeys,
  type: z.enum(["file_complete", "file_download", "file_delete"]).meta({ description: "The step of the file's life the route serves." }),
}).meta({ id: "FileRowOptions", description: "Options of `file_complete`, `file_download` and `file_delete`: routes on one file." });
export type FileRowOptions = z.output<typeof FileRowOptions>;

/** Options of `file_upload`. */
export const FileUploadOptions = z.strictObject({
  ...fileEntryKeys,
  type: z.literal("file_upload").meta({ description: "Reserve a row and presign the `PUT` of its bytes." }),
  content_types: z
    .array(z.string().regex(/^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/, "must be a media type such as image/png"))
    .min(1)
    .optional()
    .meta({ description: "The media types an upload may declare; another is a 422 naming `content_type`. Default: any.", examples: [["image/png", "application/pdf"]] }),
  max_size: z
    .int()
    .min(1)
    .max(S3_SINGLE_PUT_BYTES)
    .default(S3_SINGLE_PUT_BYTES)
    .meta({ description: "The most bytes an upload may declare; more is a 422 naming `size_bytes`. Default: 5 GiB, S3's largest single PUT." }),
  max_body_size: maxBodySizeAt("this endpoint", "the resource's, else the app's, else the project's"),
}).meta({ id: "FileUploadOptions", description: "Options of `file_upload`: what an upload may declare." });
export type FileUploadOptions = z.output<typeof FileUploadOptions>;
