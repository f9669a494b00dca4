// `codegen check`: every reference the be config makes to the user's models (each resource's
// model path, the fields it and its get, list, create and update entries name, the
// relationships and models of nested fields, the search fields, the fields lists filter and
// order by) checked against the models themselves, in the project's Python
// (check_references.py): one line per problem, with its config path. `generate` never imports
// the user's code; this does, on demand, and `codegen dev` before every start of the backend.

import { fileURLToPath } from "node:url";
import { discoverTargets, loadConfig } from "../codegen/index.js";
import { type Interpreters, newInterpreters } from "./interpreters.js";
import { DevError, type DevProject, readDevProject } from "./project.js";
import { projectPython } from "./python.js";
import { whyItStopped } from "./python-errors.js";

const CHECKER = fileURLToPath(new URL("./check_references.py", import.meta.url));

/** Scalar field types, read from a model attribute of the field's name. */
const SCALAR = new Set(["uuid", "str", "email", "int", "float", "bool", "datetime", "date", "json"]);

interface Reference {
  path: string;
  model: string;
  attribute?: string;
  relationship?: boolean;
}

interface FieldLike {
  name: string;
  type: string;
  model?: string;
  fields?: FieldLike[];
}

interface ModifierLike {
  type: string;
  fields?: (string | { name: string })[];
}

interface OperationLike {
  type: string;
  fields?: FieldLike[];
  modifiers?: ModifierLike[];
}

interface ResourceLike {
  model: string;
  fields?: FieldLike[];
  operations?: OperationLike[];
  search?: { fields?: string[] };
}

/** The be config as the check reads it (parsed: operations are entries, modifiers typed). */
export interface ReferencingConfig {
  single_app: boolean;
  apps: { config: { resources: ResourceLike[] } }[];
}

/** Entries whose `fields` are the model's attributes (an action's are its params). */
const MODEL_FIELD_OPERATIONS = new Set(["get", "list", "create", "update"]);

/** Modifiers whose `fields` name the model's attributes: the filtered and the ordered. */
const MODEL_FIELD_MODIFIERS = new Set(["filter", "order"]);

function fieldReferences(model: string, fields: readonly FieldLike[], at: string): Reference[] {
  return fields.flatMap((field, index) => {
    const path = `${at}[${index}]`;
    if (field.type === "nested" && field.model) {
      return [
        { path: `${path}.name`, model, attribute: field.name, relationship: true },
        { path: `${path}.model`, model: field.model },
        ...fieldReferences(field.model, field.fields ?? [], `${path}.fields`),
      ];
    }
    return SCALAR.has(field.type) ? [{ path: `${path}.name`, model, attribute: field.name }] : [];
  });
}

/** The fields a get, list, create or update entry names (an action's are its params). */
function entryFieldReferences(model: string, operations: readonly OperationLike[], at: string): Reference[] {
  return operations.flatMap((operation, o) => (MODEL_FIELD_OPERATIONS.has(operation.type) ? fieldReferences(model, operation.fields ?? [], `${at}[${o}].fields`) : []));
}

/** The fields the filter and order modifiers of a resource's entries name. */
function modifierReferences(model: string, operations: readonly OperationLike[], at: string): Reference[] {
  return operations.flatMap((operation, o) =>
    (operation.modifiers ?? []).flatMap((modifier, m) =>
      MODEL_FIELD_MODIFIERS.has(modifier.type)
        ? (modifier.fields ?? []).map((field, f) => {
            const path = `${at}[${o}].modifiers[${m}].fields[${f}]`;
            return typeof field === "string" ? { path, model, attribute: field } : { path: `${path}.name`, model, attribute: field.name };
          })
        : [],
    ),
  );
}

/** Every model reference of a parsed be config, with its config path. */
function modelReferences(config: ReferencingConfig): Reference[] {
  // The single-app shorthand (`single_app`) wrote its resources at the top: its paths say so.
  const lists = config.apps.map((app, a) => ({ at: config.single_app ? "resources" : `apps[${a}].config.resources`, resources: app.config.resources }));
  return lists.flatMap(({ at, resources }) =>
    resources.flatMap((resource, r) => {
      const operations = resource.operations ?? [];
      const fieldLists = [...entryFieldReferences(resource.model, operations, `${at}[${r}].operations`), ...fieldReferences(resource.model, resource.fields ?? [], `${at}[${r}].fields`)];
      return [
        { path: `${at}[${r}].model`, model: resource.model },
        // The entries' fields first: a resource that lists none has copies of theirs, which the user never wrote.
        ...onePerAttribute(fieldLists),
        ...modifierReferences(resource.model, operations, `${at}[${r}].operations`),
        ...(resource.search?.fields ?? []).map((name, s) => ({ path: `${at}[${r}].search.fields[${s}]`, model: resource.model, attribute: name })),
      ];
    }),
  );
}

/** The first reference to each attribute of a model: a field several field lists name is one problem, said once. */
function onePerAttribute(references: Reference[]): Reference[] {
  const seen = new Set<string>();
  return references.filter((reference) => {
    if (reference.attribute === undefined) return true;
    const key = JSON.stringify([reference.model, reference.attribute, reference.relationship === true]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The be config of `project`, parsed. @throws ConfigError when it is not valid. */
export async function loadProjectConfig(project: DevProject): Promise<ReferencingConfig> {
  const targets = await discoverTargets({ cwd: project.root });
  const be = targets.find((target) => target.name === "be");
  if (!be) throw new DevError("the be target is not installed");
  return (await loadConfig(project.configFile, be, { stdlibTargets: targets })) as ReferencingConfig;
}

/** How long the check may take (it imports the models) before it counts as failed. */
const CHECK_TIMEOUT_MS = 120_000;

/** The problems found, one line each (`resources[0].fields[2].name: shop.models.Note has no column or attribute titel`). */
export async function checkReferences(config: ReferencingConfig, root: string, python: Interpreters): Promise<string[]> {
  const { child, exited, stop } = python.start(CHECKER, []);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin!.end(JSON.stringify(modelReferences(config)));
  let failed: Error | undefined;
  child.once("error", (error) => (failed = error));
  const timer = setTimeout(() => void stop(), CHECK_TIMEOUT_MS);
  const status = await exited.finally(() => clearTimeout(timer));
  if (failed) throw new DevError(`cannot run ${python.python}: ${failed.message}`);
  if (status > 1 || (status === 1 && stdout.trim() === "")) throw new DevError(`checking the config against the models failed: ${whyItStopped(stderr.split("\n"), root)}`);
  return stdout.split("\n").filter((line) => line !== "");
}

/** `codegen check`: prints each problem with the config file and its path; 1 when there is any. */
export async function checkCommand(root: string): Promise<number> {
  const project = await readDevProject(root, false);
  const python = await projectPython(project.root, process.env, (line) => process.stderr.write(`codegen check: ${line}\n`));
  const interpreters = newInterpreters({ python, cwd: project.root, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" }, stdout: "pipe" });
  const problems = await checkReferences(await loadProjectConfig(project), project.root, interpreters);
  for (const line of problems) process.stderr.write(`codegen check: ${project.configFile}: ${line}\n`);
  if (problems.length === 0) process.stderr.write(`codegen check: every model, field and relationship ${project.configFile} names exists\n`);
  return problems.length > 0 ? 1 : 0;
}
