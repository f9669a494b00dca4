/**
 * The production recipe `be_root` writes into a new project (`deploy/`: nginx's site, PgBouncer's
 * settings, the systemd unit of one instance), built in memory for a project of a given name:
 * the tests run nginx, PgBouncer and the instances from these files, so what users install is
 * what the tests exercise. test/support/nginx.ts and pgbouncer.ts put the tests' ports and
 * credentials into them.
 */
import { buildFiles, discoverTargets } from "../../src/codegen/index.js";
import { RootConfig } from "../../src/targets/be_root/config.js";

export interface DeployRecipe {
  /** deploy/nginx.conf: an upstream of the instances and the server proxying to it. */
  nginx: string;
  /** deploy/pgbouncer.ini: the primary's and the replica's pools, in transaction mode. */
  pgbouncer: string;
  /** deploy/<package>@.service: one instance, on the port after the @. */
  unit: string;
}

/** The recipe of a `be_root` project named `name` (its package too). */
export async function deployRecipe(name: string): Promise<DeployRecipe> {
  const target = (await discoverTargets()).find((each) => each.name === "be_root");
  if (target === undefined) throw new Error("the be_root target is not installed");
  const files = new Map((await buildFiles(target, RootConfig.parse({ name }))).map((file) => [file.path, file.content]));
  const file = (path: string) => {
    const content = files.get(path);
    if (content === undefined) throw new Error(`be_root wrote no ${path}`);
    return content;
  };
  return { nginx: file("deploy/nginx.conf"), pgbouncer: file("deploy/pgbouncer.ini"), unit: file(`deploy/${name}@.service`) };
}
