// `codegen check`: every reference the be config makes to the user's models (each resource's
// model path, the fields it shows, the relationships and models of nested fields, the search
// fields) checked against the models themselves, in the project's Python
// (check_references.py): one line per problem, with its config path. `generate` never imports
// the user's code; this does, on demand and before `codegen dev` serves.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { discoverTargets, loadConfig } from "../codegen/index.js";
import { DevError, type DevProject, readDevProject } from "./project.js";
import { projectPython } from "./python.js";

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

interface ResourceLike {
  model: string;
  fields?: FieldLike[];
  search?: { fields?: string[] };
}

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

/** Every model reference of a parsed be config, with its config path. */
export function modelReferences(config: { single_app: boolean; apps: { config: { resources: ResourceLike[] } }[] }): Reference[] {
  // The single-app shorthand (`single_app`) wrote its resources at the top: its paths say so.
  const lists = config.apps.map((app, a) => ({ at: config.single_app ? "resources" : `apps[${a}].config.resources`, resources: app.config.resources }));
  return lists.flatMap(({ at, resources }) =>
    resources.flatMap((resource, r) => [
      { path: `${at}[${r}].model`, model: resource.model },
      ...fieldReferences(resource.model, resource.fields ?? [], `${at}[${r}].fields`),
      ...(resource.search?.fields ?? []).map((name, s) => ({ path: `${at}[${r}].search.fields[${s}]`, model: resource.model, attribute: name })),
    ]),
  );
}

/** The problems found, one line each (`resources[0].fields[2].name: shop.models.Note has no column or attribute titel`). */
export async function checkReferences(project: DevProject, python: string): Promise<string[]> {
  const targets = await discoverTargets({ cwd: project.root });
  const be = targets.find((target) => target.name === "be");
  if (!be) throw new DevError("the be target is not installed");
  const config = (await loadConfig(project.configFile, be, { stdlibTargets: targets })) as Parameters<typeof modelReferences>[0];
  const child = spawn(python, [CHECKER], { cwd: project.root, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(JSON.stringify(modelReferences(config)));
  const status = await new Promise<number>((resolve, reject) => {
    child.once("error", (error) => reject(new DevError(`cannot run ${python}: ${error.message}`)));
    child.once("exit", (code) => resolve(code ?? 1));
  });
  if (status > 1 || (status === 1 && stdout.trim() === "")) throw new DevError(`checking the config against the models failed:\n${stderr}`);
  return stdout.split("\n").filter((line) => line !== "");
}

/** `codegen check`: prints each problem with the config file and its path; 1 when there is any. */
export async function checkCommand(root: string): Promise<number> {
  const project = await readDevProject(root, false);
  const python = await projectPython(project.root, process.env, (line) => process.stderr.write(`codegen check: ${line}\n`));
  const problems = await checkReferences(project, python);
  for (const line of problems) process.stderr.write(`codegen check: ${project.configFile}: ${line}\n`);
  if (problems.length === 0) process.stderr.write(`codegen check: every model, field and relationship ${project.configFile} names exists\n`);
  return problems.length > 0 ? 1 : 0;
}
