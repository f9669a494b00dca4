// The routes of a file resource (docs/be.md#files): its model's rows describe objects in
// S3-compatible storage (runtime/files.py). `file_upload` POST {prefix}/upload stores a row
// and answers a presigned PUT; `file_complete` POST {prefix}/{pk}/complete finds the bytes in
// the bucket and marks the row uploaded (204); `file_download` POST {prefix}/{pk}/download
// answers a presigned GET; `file_delete` POST {prefix}/{pk}/delete-file deletes the object,
// then the row (204). Each is an endpoint: auth, authorization and row visibility (the row
// is loaded through the request's session: a row the user cannot see is a 404), rate limits,
// telemetry and generated tests attach as to any route.

import { type BuildContext, ImportCollector, Name, StaticFile, type ValidationIssue, operation } from "../../../../codegen/index.js";
import type { ProjectConfig, ResourceConfig } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import type { Route } from "../../modules/endpoint.js";
import type { RoutesModule } from "../../modules/routes.js";
import { ENDPOINT, RouteHandler, RouteParam } from "../../modules/handler.js";
import { pkParam, sessionParam } from "../../modules/params.js";
import { Field, SchemaClass } from "../../modules/schemas.js";
import { pythonInt, pythonString } from "../../python/literals.js";
import { cascaded } from "../../cascade.js";
import { runtimeHelperFile } from "../../runtime-source.js";
import { operationId, type ResourceView } from "../../resource.js";
import { FileRowOptions, FileUploadOptions } from "./options.js";

/** A file entry's route segment: its name as a slug (`delete_file` → `delete-file`). */
function slugOf(options: { name: string }): string {
  return new Name(options.name).slug;
}

/** A file's row is keyed by a UUID the upload route draws, which also starts its object's key. */
function* uuidKey(ctx: BuildContext): Iterable<ValidationIssue> {
  const resource = ctx.store.ancestorOf(ctx.instanceId, "resource") as ResourceConfig;
  if (resource.pk_type !== "uuid") yield { path: ["type"], message: `a file resource needs a uuid key (its upload route draws it); ${resource.name} has a ${resource.pk_type} key` };
}

/** What a file route's handler says beyond what every file route shares; `helpers` are the names it imports from the runtime's `files.py`. */
type FileRouteOptions = Omit<ConstructorParameters<typeof RouteHandler>[0], "module" | "entry" | "name" | "operationId" | "method" | "session" | "imports"> & {
  helpers: readonly string[];
  imports: ImportCollector;
};

/**
 * A file entry's `POST` route, added to its resource's routes module, and the runtime's `files.py` it calls. Its handler
 * is named by the entry, then the resource (`upload_attachment`, `uploadAttachment`), and imports the model.
 */
function fileRoute({ view, routes }: { view: ResourceView; routes: RoutesModule }, options: FileUploadOptions | FileRowOptions, { helpers, imports, ...rest }: FileRouteOptions): unknown[] {
  const name = `${new Name(options.name).snake}_${view.name}`;
  const handler = new RouteHandler({
    module: routes,
    entry: options,
    name,
    operationId: operationId(view, name),
    method: "POST",
    session: sessionParam(view),
    imports: imports.addFrom(view.model.module, view.model.importName).addFrom(`${view.runtimePackage}.files`, ...helpers),
    ...rest,
  });
  return [routes.add(handler), new StaticFile(runtimeHelperFile("files"))];
}

@operation("file_upload", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class FileUpload {
  static Options = FileUploadOptions;

  static route(options: FileUploadOptions): Route {
    return { kind: "write", path: `/${slugOf(options)}` };
  }

  *validate(ctx: BuildContext): Iterable<ValidationIssue> {
    yield* uuidKey(ctx);
  }

  build(ctx: BuildContext<ProjectConfig>, options: FileUploadOptions): unknown[] {
    const files = resourceFiles(ctx);
    const { view, schemas } = files;
    const body = schemas.add(uploadBody(view, schemas, options));
    schemas.alsoHolds("the bodies of their uploads");
    return fileRoute(files, options, {
      route: FileUpload.route(options),
      statusCode: 200,
      summary: options.summary ?? `Store a new ${view.label} and answer where to PUT its bytes.`,
      responseModel: "UploadTicket",
      params: [new RouteParam({ name: "body", annotation: body.name, imports: new ImportCollector().addFrom(schemas.dotted, body.name) })],
      maxBodySize: cascaded(ctx.store, ctx.instanceId, ctx.config, "max_body_size"),
      body: { template: "operations/files/upload.py.njk", context: { row: view.variable, model: view.model.local, pk: view.pk } },
      helpers: ["UploadTicket", "object_key", "presign_upload"],
      imports: new ImportCollector().add("uuid"),
    });
  }
}

/** The upload's body: the file's name, media type and size, within the entry's limits. */
function uploadBody(view: ResourceView, schemas: SchemaClass["module"], options: FileUploadOptions): SchemaClass {
  const imports = new ImportCollector().addFrom("typing", "Annotated").addFrom("pydantic", "Field");
  const types = options.content_types;
  if (types !== undefined) imports.addFrom("typing", "Literal");
  return new SchemaClass({
    module: schemas,
    name: `${new Name(view.name).pascal}${new Name(options.name).pascal}`,
    doc: `The ${view.label} an upload declares; PUT its bytes to the URL of the answer.`,
    fields: [
      new Field({ name: "filename", annotation: "Annotated[str, Field(min_length=1, max_length=255)]" }),
      new Field({
        name: "content_type",
        annotation: types === undefined ? "Annotated[str, Field(min_length=1, max_length=255)]" : `Literal[${types.map(pythonString).join(", ")}]`,
      }),
      new Field({ name: "size_bytes", annotation: `Annotated[int, Field(ge=0, le=${pythonInt(options.max_size)})]` }),
    ],
    imports,
  });
}

/** What each row step of a file does: its method, template, status and answer. */
const ROW_STEPS = {
  file_complete: { kind: "write", template: "complete", status: 204, helpers: ["not_uploaded", "stored_size"], summary: "Mark one {label} uploaded once its bytes are in storage." },
  file_download: { kind: "read", template: "download", status: 200, helpers: ["DownloadTicket", "not_uploaded", "presign_download"], summary: "Answer a URL that downloads one {label}'s bytes." },
  file_delete: { kind: "write", template: "delete", status: 204, helpers: ["delete_object"], summary: "Delete one {label}: its bytes, then its row." },
} as const;

/** The routes on one file: its row loaded through the request's session (404 when missing or hidden), then its step. */
class FileRowStep {
  static Options = FileRowOptions;

  static route(options: FileRowOptions): Route {
    return { kind: ROW_STEPS[options.type].kind, path: `/{pk}/${slugOf(options)}` };
  }

  *validate(ctx: BuildContext): Iterable<ValidationIssue> {
    yield* uuidKey(ctx);
  }

  build(ctx: BuildContext<ProjectConfig>, options: FileRowOptions): unknown[] {
    const files = resourceFiles(ctx);
    const { view, routes } = files;
    const step = ROW_STEPS[options.type];
    const imports = new ImportCollector().addFrom("sqlalchemy", "select");
    if (options.type === "file_complete") imports.addFrom("datetime", "UTC", "datetime");
    return fileRoute(files, options, {
      route: FileRowStep.route(options),
      statusCode: step.status,
      summary: options.summary ?? step.summary.replace("{label}", view.label),
      responseModel: options.type === "file_download" ? "DownloadTicket" : undefined,
      params: [pkParam(view)],
      // A file whose bytes were never found: complete and download answer 409.
      errors: options.type === "file_delete" ? [] : [409],
      body: {
        template: `operations/files/${step.template}.py.njk`,
        context: { row: view.variable, model: view.model.local, pk: view.pk, notFound: routes.notFound() },
      },
      helpers: step.helpers,
      imports,
    });
  }
}

@operation("file_complete", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class FileComplete extends FileRowStep {}

@operation("file_download", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class FileDownload extends FileRowStep {}

@operation("file_delete", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class FileDelete extends FileRowStep {}
