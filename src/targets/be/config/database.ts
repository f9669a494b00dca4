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
 * `DATABASE_URL` → `DATABASE_REPLICA_URLS`: the variable holding the replicas' URLs, beside the primary's.
 * @example defaultReplicaUrlsEnv("ANALYTICS_URL") // "ANALYTICS_REPLICA_URLS"
 */
function defaultReplicaUrlsEnv(urlEnv: string): string {
  return `${urlEnv.replace(/_URL$/, "")}_REPLICA_URLS`;
}

/** Streaming replicas of a database, which the routes that only read use while they keep up (docs/replicas.md). */
export const ReplicasConfig = z
  .strictObject({
    url_env: EnvVarName.optional().meta({
      description:
        "Environment variable holding the replicas' async URLs, commas between them. Unset or empty, reads use the primary. " +
        "Default: the database's `url_env` with `_URL` replaced by `_REPLICA_URLS` (`DATABASE_REPLICA_URLS`).",
    }),
    max_lag: z.number().positive().default(5).meta({
      description:
        "Seconds a replica may be behind its primary and still be read from; one further behind (or not receiving WAL) is " +
        "skipped until a check finds it caught up.",
      examples: [1],
    }),
    check_interval: z.number().positive().default(1).meta({
      description: "Seconds between two checks of a replica's lag by one process, made in the background while reads need it.",
    }),
    fallback: z.enum(["primary", "unavailable"]).default("primary").meta({
      description:
        "What reads do while no replica is up and keeping up: `primary` reads from the primary; `unavailable` answers 503 " +
        "with `Retry-After`, keeping the primary for writes.",
    }),
  })
  .meta({ id: "ReplicasConfig", description: "Read replicas of a database (docs/replicas.md)." });

/** A database's replicas, their URLs' variable filled in. */
type Replicas = z.output<typeof ReplicasConfig> & { url_env: string };

/** A database connection. Resources pick one with `db_key`; those without use the default. */
export const DatabaseConfig = z
  .strictObject({
    key: PythonName.meta({
      description: "The database's name (SPEC's `postgres(<name>)`): resources refer to it in `db_key`; it names `db/<key>_session.py`. Unique.",
      examples: ["analytics"],
    }),
    url_env: EnvVarName.optional().meta({
      description:
        "Environment variable holding the async URL (`postgresql+asyncpg://…`). Default: `DATABASE_URL` for the default " +
        "database, else `<KEY>_DATABASE_URL` (`analytics` → `ANALYTICS_DATABASE_URL`).",
    }),
    default: z.boolean().default(false).meta({ description: "The database of resources without `db_key`; exactly one database has it." }),
    echo: z.boolean().default(false).meta({ description: "Log every SQL statement (SQLAlchemy's `echo`)." }),
    pool_size: z.int().min(1).default(15).meta({
      description:
        "Connections kept open in the pool: make it the concurrency a worker should reach. Requests beyond it wait for a " +
        "connection (`pool_timeout`).",
    }),
    max_overflow: z.int().min(0).default(0).meta({
      description:
        "Connections opened beyond `pool_size` under load, each closed again when returned while `pool_size` connections " +
        "wait in the pool: under steady load past `pool_size` the pool then opens and closes connections all along.",
    }),
    pool_timeout: z.number().min(0).default(5).meta({
      description:
        "Seconds a request waits for a free connection when every one is in use; then it is answered 503 with `Retry-After`. " +
        "Short, so a saturated server sheds load instead of queueing requests that clients have given up on.",
      examples: [2.5],
    }),
    connect_timeout: z.number().positive().default(5).meta({
      description: "Seconds to wait for a new connection to the database to open; a database that does not answer in time is a 503.",
    }),
    statement_timeout: z.number().min(0).default(30).meta({
      description:
        "Seconds a single SQL statement may run before PostgreSQL cancels it (its `statement_timeout`, set by each " +
        "connection as it opens, or with `transaction_pooling` by `SET LOCAL` in each transaction, where the routes that " +
        "only read then keep a transaction); the request is then answered 503 with `Retry-After`. `0` lets statements " +
        "run without limit.",
      examples: [10],
    }),
    pool_recycle: z
      .int()
      .min(-1, "must be -1 (never recycle) or a number of seconds")
      .default(-1)
      .meta({ description: "Seconds after which a connection is replaced; `-1` never replaces one." }),
    pool_pre_ping: z.boolean().default(true).meta({
      description:
        "Discard each connection the database closed (a restart, a terminated backend) as it leaves the pool, so no request " +
        "meets one: the name is SQLAlchemy's, whose ping costs three round trips on asyncpg; the generated pool reads the " +
        "connection's state instead and sends nothing (docs/be.md, When the database is busy or down).",
    }),
    transaction_pooling: z.boolean().default(false).meta({
      description:
        "The URL points at a pooler in transaction mode (PgBouncer's `pool_mode = transaction`), which hands the server " +
        "connection to another client after each transaction: no prepared statement is kept across transactions (asyncpg's " +
        "`statement_cache_size=0`, SQLAlchemy's `prepared_statement_cache_size=0`) and each one gets a unique name, so two " +
        "clients never meet each other's statements on one server connection; the statement timeout is set per transaction " +
        "(docs/pgbouncer.md).",
    }),
    replicas: ReplicasConfig.optional().meta({
      description:
        "Streaming replicas that `get`, lists, search and discovery read from while they keep up; writes, and every read " +
        "after a write in the same request, use the primary (docs/replicas.md). Default: none, every query on the primary.",
      examples: [{ max_lag: 2 }],
    }),
  })
  .meta({
    id: "DatabaseConfig",
    description: "A PostgreSQL connection. Resources pick one with `db_key`; those without use the default database.",
    examples: [{ key: "analytics", url_env: "ANALYTICS_URL", pool_size: 10 }],
  })
  .transform(({ key, url_env, replicas, ...rest }) => {
    const urlEnv = url_env ?? defaultUrlEnv({ key, default: rest.default });
    const parsed: typeof rest & { key: string; url_env: string; replicas?: Replicas } = { key, url_env: urlEnv, ...rest };
    if (replicas !== undefined) parsed.replicas = { ...replicas, url_env: replicas.url_env ?? defaultReplicaUrlsEnv(urlEnv) };
    return parsed;
  });
export type DatabaseConfig = z.output<typeof DatabaseConfig>;
