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
 * - every CRUD operation (`create` and `update` with their scalar fields; `list` with a
 *   filter, an order and keyset pages of 20), an instance action and a collection action,
 *   both with typed params.
 *
 * {@link writeBenchConfigs} writes each as plain JSON and as jsonnet built with the `be`
 * stdlib helpers (`be/fields.libsonnet`, `be/lists.libsonnet`, `be/resources/presets.libsonnet`);
 * the two evaluate to the same data (test/bench.test.ts checks it).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The benchmarked config sizes, in resources. */
export const SIZES = [10, 100, 1000] as const;

/** The `--runs` and `--sizes` flags of the benchmarks, checked: a positive count, positive sizes. */
export function runsAndSizes(flags: { runs: string; sizes: string }): { runs: number; sizes: number[] } {
  const runs = Number(flags.runs);
  const sizes = flags.sizes.split(",").map(Number);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a positive integer, got ${flags.runs}`);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`--sizes: expected positive integers, got ${flags.sizes}`);
  return { runs, sizes };
}

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
        type: "list",
        modifiers: [
          {
            type: "filter",
            fields: [
              { name: "name", values: "free_text" },
              { name: "active", values: "bool" },
              { name: "score", values: "literal", operators: ["gte", "lte", "is_null"] },
            ],
          },
          { type: "order", fields: ["name", "created_at"], default_dir: "desc", default: "created_at" },
          { type: "paginate", mode: "keyset", default_page_size: 20, max_page_size: 100 },
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

/** The resource the watch and `edit` benchmarks edit: one near the middle, which exists at every size. */
export function editedResource(total: number): number {
  return Math.min(total - 1, Math.floor(total / 2) + 7);
}

/** {@link benchConfig} with resource `index`'s list paged by `pageSize` by default: the edit the watch and `edit` benchmarks make. */
export function benchConfigEdited(total: number, index: number, pageSize: number): Field {
  const config = benchConfig(total);
  const apps = (config as unknown as { apps: { config: { resources: { operations: unknown[] }[] } }[] }).apps;
  const resource = apps[Math.floor(index / RESOURCES_PER_APP)]!.config.resources[index % RESOURCES_PER_APP]!;
  const list = resource.operations.find((op) => (op as { type?: string }).type === "list") as { modifiers: { type: string; default_page_size?: number }[] };
  list.modifiers.find((modifier) => modifier.type === "paginate")!.default_page_size = pageSize;
  return config;
}

/**
 * The same project as {@link benchConfig}, as the jsonnet a user would write: the stdlib's
 * field, list and operation helpers, resources made by a comprehension. Model numbers are
 * padded by hand: libjsonnet's `std.format` costs about 1 ms a call (see bench/README.md).
 */
export function benchJsonnet(total: number): string {
  return `local f = import 'be/fields.libsonnet';
local l = import 'be/lists.libsonnet';
local p = import 'be/resources/presets.libsonnet';

local total = ${total};
local perApp = ${RESOURCES_PER_APP};
local pad(n, width) = local s = std.toString(n); std.substr('0000', 0, width - std.length(s)) + s;
local model(i) = 'bench.models.Model' + pad(i, 4);

local writable = [
  f.str('name'),
  f.email('email'),
  f.int('count', { default: 0 }),
  f.float('score', { nullable: true }),
  f.bool('active', { default: true }),
  f.date('due_on', { nullable: true }),
  f.json('extra', { default: {} }),
  f.uuid('owner_id'),
];
local brief = [f.uuid('id'), f.str('name')];

local resource(i) = {
  model: model(i),
  fields: [f.uuid('id')] + writable + [
    f.datetime('created_at'),
    f.nested('owner', model((i + 1) % total), brief, load=if i % 2 == 0 then 'joined' else 'selectin'),
    f.nested(
      'children',
      model((i + total - 1) % total),
      brief + [f.nested('owner', model(i), brief, load='joined')],
      many=true,
      load=if i % 3 == 0 then 'subquery' else 'selectin',
    ),
  ],
  operations: [
    'get',
    l.searchable(
      filters=[l.freeText('name'), l.bool('active'), l.literal('score', ['gte', 'lte', 'is_null'])],
      order=['name', 'created_at'], default='created_at', dir='desc', page_size=20,
    ),
    { name: 'create', fields: writable },
    { name: 'update', fields: writable },
    'delete',
    p.instanceAction('archive', 'bench.actions.archive', [f.str('reason'), f.datetime('until', { nullable: true })]),
    p.collectionAction('bulk_touch', 'bench.actions.bulk_touch', [f.int('limit'), f.bool('dry_run', { default: false })]),
  ],
};

{
  package_prefix: 'bench.api',
  databases: [{ key: 'main', default: true }],
  apps: [
    {
      config: {
        module: 'app' + pad(app, 2),
        resources: [resource(i) for i in std.range(app * perApp, std.min(total, (app + 1) * perApp) - 1)],
      },
    }
    for app in std.range(0, std.ceil(total / perApp) - 1)
  ],
}
`;
}

/** The paths of the bench configs of one size. */
export interface BenchConfigFiles {
  json: string;
  jsonnet: string;
}

/** Writes `resources-<n>.json` and `resources-<n>.jsonnet` for every size into `dir`; returns the paths by size. */
export async function writeBenchConfigs(dir: string, sizes: readonly number[] = SIZES): Promise<Map<number, BenchConfigFiles>> {
  await mkdir(dir, { recursive: true });
  const paths = new Map<number, BenchConfigFiles>();
  for (const size of sizes) {
    const json = join(dir, `resources-${size}.json`);
    const jsonnet = join(dir, `resources-${size}.jsonnet`);
    await writeFile(json, `${JSON.stringify(benchConfig(size), null, 2)}\n`);
    await writeFile(jsonnet, benchJsonnet(size));
    paths.set(size, { json, jsonnet });
  }
  return paths;
}
