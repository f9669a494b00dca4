// One async PostgreSQL connection of the generated backend (`be/db/databases.libsonnet`).
// Parsing fills every pool setting and the environment variable holding the URL, so the
// session templates print values and never decide defaults.

import { z } from "zod";
import { EnvVarName, PythonName } from "./primitives.js";

/** `DATABASE_URL` for the default database, `<KEY>_DATABASE_URL` for the others. */
export function defaultUrlEnv(database: { key: string; default: boolean }): string {
  return database.default ? "DATABASE_URL" : `${database.key.toUpperCase()}_DATABASE_URL`;
}

/**
 * A database connection. Resources pick one with `db_key`; those without use the default.
 * @example { key: "analytics", url_env: "ANALYTICS_URL", pool_size: 10 }
 */
export const DatabaseConfig = z
  .strictObject({
    /** The database's name (SPEC's `postgres(<name>)`): resources refer to it in `db_key`; names `db/<key>_session.py`. @example "analytics" */
    key: PythonName,
    /**
     * Environment variable holding the async database URL (`postgresql+asyncpg://…`).
     * @default "DATABASE_URL" for the default database, else `<KEY>_DATABASE_URL` (key uppercased)
     */
    url_env: EnvVarName.optional(),
    /** Marks the database resources use when they give no `db_key`; exactly one has it. @default false */
    default: z.boolean().default(false),
    /** Log every SQL statement (SQLAlchemy's `echo`). @default false */
    echo: z.boolean().default(false),
    /** Connections kept open in the pool. @default 5 */
    pool_size: z.int().min(1).default(5),
    /** Connections allowed beyond `pool_size` under load. @default 10 */
    max_overflow: z.int().min(0).default(10),
    /** Seconds to wait for a free connection before failing. @default 30 */
    pool_timeout: z.int().min(0).default(30),
    /** Seconds after which a connection is replaced; -1 never replaces. @default -1 */
    pool_recycle: z.int().min(-1, "must be -1 (never recycle) or a number of seconds").default(-1),
    /** Test each connection with a ping when it is taken from the pool. @default true */
    pool_pre_ping: z.boolean().default(true),
  })
  .transform(({ key, url_env, ...rest }) => ({ key, url_env: url_env ?? defaultUrlEnv({ key, default: rest.default }), ...rest }));
export type DatabaseConfig = z.output<typeof DatabaseConfig>;
