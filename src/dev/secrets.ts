// A development signing secret for `codegen dev`: a backend whose config signs tokens with a
// shared secret (`auth.secret_env`, an HS* algorithm) gets one when the variable is unset,
// kept in `.codegen/dev-secret` (git-ignored, owner-only) so tokens survive restarts.
// Production sets the variable itself; asymmetric keys are never made up. With auth, the
// development user's password is made and kept the same way (`.codegen/dev-password`).

import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** The parts of a parsed `be` config this reads: the JWT flow's variable and algorithm. */
interface SignedAuth {
  auth?: { secret_env?: string; algorithm?: string };
}

/** `{ [secret_env]: secret }` when the config signs with a shared secret its variable does not hold, else `{}`. */
export async function developmentSecret(root: string, config: SignedAuth, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const variable = config.auth?.secret_env;
  if (variable === undefined || env[variable] || !config.auth?.algorithm?.startsWith("HS")) return {};
  const file = path.join(root, ".codegen", "dev-secret");
  if (!existsSync(file)) {
    await mkdir(path.dirname(file), { recursive: true });
    // 48 random bytes: above the 32 the generated auth package requires of HS* secrets.
    await writeFile(file, `${randomBytes(48).toString("base64url")}\n`, { mode: 0o600 });
  }
  return { [variable]: (await readFile(file, "utf8")).trim() };
}

/** The name of the one user `codegen dev` lets sign in (be_root's `auth.py`, `development_user`). */
export const DEV_USER = "dev";

/**
 * The variables that let the development user in, for a config with `auth`: its name and a
 * password made once and kept in `.codegen/dev-password` (owner-only). Only `codegen dev`
 * sets them; `{}` without auth.
 */
export async function developmentUser(root: string, config: { auth?: unknown }): Promise<Record<string, string>> {
  if (config.auth === undefined || config.auth === null) return {};
  const file = path.join(root, ".codegen", "dev-password");
  if (!existsSync(file)) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${randomBytes(12).toString("base64url")}\n`, { mode: 0o600 });
  }
  return { CODEGEN_DEV_USER: DEV_USER, CODEGEN_DEV_PASSWORD: (await readFile(file, "utf8")).trim() };
}
