// RouteHandler → `{module}/routes/{name}.py`: the module (router and shared helpers, from
// the handler's `module` context) and one snippet per handler: decorator, signature,
// docstring, and the body of the handler's kind.

import { FileFragment, type Fragment, ImportCollector, type RenderCtx, SnippetFragment, renderTemplate } from "../../../codegen/index.js";
import type { RouteHandler, RouteParam } from "../operations/types.js";
import { wrapCall } from "../python/wrap.js";

const STATUS_NAMES: Record<number, string> = {
  201: "HTTP_201_CREATED",
  202: "HTTP_202_ACCEPTED",
  204: "HTTP_204_NO_CONTENT",
};

export function renderRouteHandler(handler: RouteHandler, ctx: RenderCtx): Fragment[] {
  const imports = new ImportCollector().addFrom("fastapi", "APIRouter").update(handler.imports);
  for (const param of [...handler.params, ...handler.dependencies]) imports.update(param.imports);
  if (handler.statusCode !== 200) imports.addFrom("fastapi", "status");
  const module = Object.fromEntries(Object.entries(handler.context.module as Record<string, unknown>).filter(([, value]) => value !== undefined));
  const body = renderTemplate(ctx.env, `routes/${handler.kind}.py.njk`, handler.context).replace(/\s+$/, "");
  return [
    new FileFragment({ path: handler.file, template: "routes/module.py.njk", context: module }),
    new SnippetFragment({
      path: handler.file,
      slot: "handlers",
      template: "routes/handler.py.njk",
      context: { decorator: decorator(handler), signature: signature(handler), doc: handler.summary, body },
      imports,
    }),
  ];
}

function decorator(handler: RouteHandler): string {
  const args = [JSON.stringify(handler.path)];
  if (handler.statusCode !== 200) {
    const name = STATUS_NAMES[handler.statusCode];
    args.push(`status_code=${name ? `status.${name}` : handler.statusCode}`);
  }
  args.push(`operation_id=${JSON.stringify(handler.operationId)}`);
  return wrapCall(`@router.${handler.method.toLowerCase()}`, args);
}

// Parameters with defaults must follow those without, as Python requires.
function signature(handler: RouteHandler): string {
  const all = [...handler.params, ...handler.dependencies];
  const ordered = [...all.filter((param) => param.default === undefined), ...all.filter((param) => param.default !== undefined)];
  return wrapCall(`async def ${handler.name}`, ordered.map(parameter), ` -> ${handler.responseModel ?? "None"}:`);
}

function parameter(param: RouteParam): string {
  return param.default === undefined ? `${param.name}: ${param.annotation}` : `${param.name}: ${param.annotation} = ${param.default}`;
}
