/**
 * Synthetic `be` configs for the generation benchmark.
 *
 * A config of `n` resources has models `bench.models.Model0000` … `Model{n-1}`, grouped
 * into apps of at most {@link RESOURCES_PER_APP} resources (`app00`, `app01`, …), so the
 * 1,000-resource config also exercises the project router. Every resource has:
 *
 * - scalar fields of every type (uuid, str, email, int, float, bool, datetime, date, json);
 * - a many-to-one nested field `owner` (the next model), loaded `joined` on even resources
 *   and `selectin` on odd ones;
 * - a two-level nested field `children` (the previous model, `many`, loaded `selectin`, or
 *   `subquery` on every third resource), each child with its own `owner` loaded `joined`;
 * - every CRUD operation (`create` and `update` with their scalar fields), an instance
 *   action and a collection action, both with typed params.
 *
 * The configs are plain JSON (jsonnet's output format), written by {@link writeBenchConfigs}.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The benchmarked config sizes, in resources. */
export const SIZES = [10, 100, 1000] as const;

/** Resources per app: larger configs are split into several apps. */
export const RESOURCES_PER_APP = 100;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Field = { [key: string]: Json };

const field = (name: string, type: string, options: Field = {}): Field => ({ name, type, ...options });

function modelClass(index: number): string {
  return `Model${String(index).padStart(4, "0")}`;
}

function modelPath(index: number): string {
  return `bench.models.${modelClass(index)}`;
}

/** The scalar fields a client may write (create and update bodies). */
function writableFields(): Field[] {
  return [
    field("name", "str"),
    field("email", "email"),
    field("count", "int", { default: 0 }),
    field("score", "float", { nullable: true }),
    field("active", "bool", { default: true }),
    field("due_on", "date", { nullable: true }),
    field("extra", "json", { default: {} }),
    field("owner_id", "uuid"),
  ];
}

/** The resource `index` of a config of `total` resources. */
export function benchResource(index: number, total: number): Field {
  const next = (index + 1) % total;
  const previous = (index + total - 1) % total;
  const brief = (): Field[] => [field("id", "uuid"), field("name", "str")];
  return {
    model: modelPath(index),
    fields: [
      field("id", "uuid"),
      ...writableFields(),
      field("created_at", "datetime"),
      {
        ...field("owner", "nested"),
        model: modelPath(next),
        fields: brief(),
        load: index % 2 === 0 ? "joined" : "selectin",
      },
      {
        ...field("children", "nested"),
        model: modelPath(previous),
        many: true,
        load: index % 3 === 0 ? "subquery" : "selectin",
        fields: [
          ...brief(),
          { ...field("owner", "nested"), model: modelPath(index), fields: brief(), load: "joined" },
        ],
      },
    ],
    operations: [
      "get",
      {
        name: "list",
        modifiers: [
          {
            type: "filter",
            fields: [
              { name: "name", values: "free_text" },
              { name: "active", values: "bool" },
              { name: "score", values: "literal", operators: ["gte", "lte", "is_null"] },
            ],
          },
          { type: "order", fields: ["name", "created_at"], default: "created_at", default_dir: "desc" },
          { type: "paginate", default_page_size: 20, max_page_size: 100 },
        ],
      },
      { name: "create", fields: writableFields() },
      { name: "update", fields: writableFields() },
      "delete",
      {
        name: "archive",
        type: "action",
        fn: "bench.actions.archive",
        target: "instance",
        params: [field("reason", "str"), field("until", "datetime", { nullable: true })],
      },
      {
        name: "bulk_touch",
        type: "action",
        fn: "bench.actions.bulk_touch",
        target: "collection",
        params: [field("limit", "int"), field("dry_run", "bool", { default: false })],
      },
    ],
  };
}

/** The project config of `total` resources. */
export function benchConfig(total: number): Field {
  const apps: Json[] = [];
  for (let start = 0; start < total; start += RESOURCES_PER_APP) {
    const resources: Json[] = [];
    for (let index = start; index < Math.min(start + RESOURCES_PER_APP, total); index++) {
      resources.push(benchResource(index, total));
    }
    const module = `app${String(apps.length).padStart(2, "0")}`;
    apps.push({ config: { module, resources } });
  }
  return {
    package_prefix: "bench.api",
    databases: [{ key: "main", default: true }],
    apps,
  };
}

/** Write `resources-<n>.json` for every size into `dir`; returns the paths by size. */
export async function writeBenchConfigs(dir: string, sizes: readonly number[] = SIZES): Promise<Map<number, string>> {
  await mkdir(dir, { recursive: true });
  const paths = new Map<number, string>();
  for (const size of sizes) {
    const path = join(dir, `resources-${size}.json`);
    await writeFile(path, `${JSON.stringify(benchConfig(size), null, 2)}\n`);
    paths.set(size, path);
  }
  return paths;
}
