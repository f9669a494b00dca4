/**
 * The bench project (bench/configs.ts) as kiln's `be` target reads it, for the paired
 * benchmark against kiln (bench/kiln.ts): the same apps, resources, fields and operations.
 *
 * Where the two configs differ in shape:
 * - kiln has no resource-level `fields`: its `get` and `list` entries list the read shape,
 *   which is the resource's fields (what codegen's `get` and `list` show without fields of
 *   their own);
 * - kiln's fields have no `default` or `nullable`, and its `literal` filters name the
 *   field's type;
 * - kiln requires auth on a resource unless told otherwise; the bench project has no auth;
 * - kiln reads an action's target and parameters from the Python function `fn` names (it
 *   imports it, and the resource's model, while generating), so {@link kilnPythonPackage}
 *   writes that package: plain classes for the models (no ORM mapping, so the import costs
 *   kiln as little as it can) and the two actions, typed.
 */
import { benchConfig } from "./configs.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Entry = { [key: string]: Json };

/** A field as kiln reads it: name, type and, for nested fields, the related model's shape. */
function kilnField(field: Entry): Entry {
  if (field.type !== "nested") return { name: field.name!, type: field.type! };
  return {
    name: field.name!,
    type: "nested",
    model: field.model!,
    fields: (field.fields as Entry[]).map(kilnField),
    many: field.many ?? false,
    load: field.load!,
  };
}

function kilnOperation(operation: Json, readShape: Entry[], resourceFields: Entry[]): Entry {
  if (typeof operation === "string") return operation === "get" ? { name: "get", fields: readShape } : { name: operation };
  const entry = operation as Entry;
  if (entry.type === "action") return { name: entry.name!, type: "action", fn: entry.fn! };
  if (entry.type === "list") {
    const modifiers = (entry.modifiers as Entry[]).map((modifier): Entry => {
      if (modifier.type !== "filter") return modifier;
      const fields = (modifier.fields as Entry[]).map((filter): Entry => {
        if (filter.values !== "literal") return filter;
        return { ...filter, type: resourceFields.find((field) => field.name === filter.name)!.type! };
      });
      return { ...modifier, fields };
    });
    return { name: entry.name!, fields: readShape, modifiers };
  }
  return { name: entry.name!, fields: (entry.fields as Entry[]).map(kilnField) };
}

/** The kiln config of the bench project of `total` resources. */
export function kilnConfig(total: number): Entry {
  const config = benchConfig(total);
  const apps = (config.apps as { config: { module: string; resources: Entry[] } }[]).map(({ config: app }) => ({
    config: {
      module: app.module,
      resources: app.resources.map((resource): Entry => {
        const fields = resource.fields as Entry[];
        const readShape = fields.map(kilnField);
        return {
          model: resource.model!,
          require_auth: false,
          operations: (resource.operations as Json[]).map((operation) => kilnOperation(operation, readShape, fields)),
        };
      }),
    },
  }));
  return { package_prefix: config.package_prefix!, databases: config.databases!, apps };
}

/**
 * The Python package kiln imports while generating the bench project of `total` resources,
 * as files relative to a directory on its `PYTHONPATH`: the models the resources name, and
 * the actions, whose parameters match the bench config's `params`.
 */
export function kilnPythonPackage(total: number): Map<string, string> {
  const models = ["class BenchModel:", '    """What every bench model is; the instance action takes one."""', ""];
  for (let index = 0; index < total; index++) {
    models.push("", `class Model${String(index).padStart(4, "0")}(BenchModel):`, "    pass", "");
  }
  const actions = `import datetime

from pydantic import BaseModel

from bench.models import BenchModel


class ArchiveParams(BaseModel):
    reason: str
    until: datetime.datetime | None = None


class BulkTouchParams(BaseModel):
    limit: int
    dry_run: bool = False


async def archive(obj: BenchModel, body: ArchiveParams, db) -> None:
    pass


async def bulk_touch(body: BulkTouchParams, db) -> None:
    pass
`;
  return new Map([
    ["bench/__init__.py", ""],
    ["bench/models.py", models.join("\n")],
    ["bench/actions.py", actions],
  ]);
}
