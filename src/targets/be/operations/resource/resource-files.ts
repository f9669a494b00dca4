// `resource_files` (resource scope): the one producer of a resource's generated modules —
// schemas, serializers, routes — and of its read shape. It runs before the resource's
// operation entries, which add their classes and handlers to these modules.

import { type BuildContext, operation } from "../../../../codegen/index.js";
import type { ProjectConfig } from "../../config/schema.js";
import { ResourceFiles } from "../../modules/files.js";
import { ReadShape } from "../../modules/read-shape.js";
import { RoutesModule } from "../../modules/routes.js";
import { SchemaModule } from "../../modules/schemas.js";
import { SerializerModule } from "../../modules/serializers.js";
import { buildResourceView } from "../../resource.js";

@operation("resource_files", { scope: "resource" })
export class ResourceFilesOperation {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const view = buildResourceView(ctx);
    const schemas = new SchemaModule(view);
    const serializers = new SerializerModule(view);
    const routes = new RoutesModule(view);
    const read = new ReadShape(view, schemas, serializers);
    return [schemas, serializers, routes, new ResourceFiles(view, schemas, serializers, routes, read)];
  }
}
