// `RootScaffold` (project scope): the files of a new backend project around the `be` target:
// models, actions, health routes, the app, migrations, a starter config, container recipe,
// the production recipe of several instances (nginx, PgBouncer, a systemd unit), and with
// `opa` a starter Rego policy with its tests.
// Every file is the user's once written: the `skip` policy leaves an existing file alone
// (unless `--force` or `--force-paths`), and none carries the "do not edit" banner.

import { StaticFile, operation } from "../../../codegen/index.js";
import type { BuildContext } from "../../../codegen/index.js";
import type { RootConfig } from "../config.js";
import { DEV_REQUIREMENTS, OPA_REQUIREMENTS, runtimeRequirements } from "../dependencies.js";

/** A user-owned file: written once, no banner. */
function starter(path: string, template: string, context: Record<string, unknown> = {}): StaticFile {
  return new StaticFile({ path, template, context, ifExists: "skip", banner: false });
}

/** `from <module> import <name>` lines of main.py, sorted by module like an import sorter would. */
function mainImports(root: RootConfig): string[] {
  return [
    `from ${root.package_prefix}.${root.module}.routes import router`,
    `from ${root.package_prefix}.database import DATABASES`,
    `from ${root.package_prefix}.runtime.shutdown import graceful_lifespan`,
    `from ${root.package}.health import router as health_router`,
  ].sort();
}

/** `from <module> import <name>` lines of migrations/env.py, sorted by module. */
function envImports(root: RootConfig): string[] {
  return [
    `from ${root.package_prefix}.database import METADATA`,
    `from ${root.package_prefix}.runtime.migrations import compare_extensions`,
    `from ${root.package}.models import Base`,
  ].sort();
}

@operation("root_scaffold", { scope: "project" })
export class RootScaffold {
  build(ctx: BuildContext<RootConfig>): StaticFile[] {
    const root = ctx.config;
    const pkg = root.package;
    const context = {
      ...root,
      /** The title as a Python / TOML string literal (JSON's escapes are valid in both). */
      title_literal: JSON.stringify(root.title),
      /** Where `codegen generate --target be` writes by default: the package prefix as a path. */
      api_dir: root.package_prefix.split(".").join("/"),
      /** Where the `be` config reads the replicas' URLs by default (`replicas.url_env`): `DATABASE_URL` → `DATABASE_REPLICA_URLS`. */
      replica_urls_env: `${root.database_url_env.replace(/_URL$/, "")}_REPLICA_URLS`,
    };
    const files = [
      starter("pyproject.toml", "pyproject.toml.njk", {
        ...context,
        dependencies: runtimeRequirements({ auth: root.auth, opa: root.opa, files: root.files }),
        // httpx is a runtime requirement with OPA: not twice.
        dev_dependencies: root.opa ? DEV_REQUIREMENTS.filter((requirement) => !OPA_REQUIREMENTS.includes(requirement)) : DEV_REQUIREMENTS,
      }),
      starter("README.md", "README.md.njk", context),
      starter(".gitignore", "gitignore.njk"),
      starter(".dockerignore", "dockerignore.njk"),
      starter(".env.example", "env.example.njk", context),
      starter("Dockerfile", "Dockerfile.njk", context),
      starter("config/project.jsonnet", "config/project.jsonnet.njk", context),
      starter(`${pkg}/__init__.py`, "package/__init__.py.njk", context),
      starter(`${pkg}/models.py`, "package/models.py.njk", context),
      starter(`${pkg}/actions.py`, "package/actions.py.njk", context),
      starter(`${pkg}/seed.py`, "package/seed.py.njk", context),
      starter(`${pkg}/health.py`, "package/health.py.njk", context),
      starter(`${pkg}/main.py`, "package/main.py.njk", { ...context, import_lines: mainImports(root) }),
      starter("alembic.ini", "alembic.ini.njk", context),
      starter("migrations/env.py", "migrations/env.py.njk", { ...context, import_lines: envImports(root) }),
      starter("migrations/script.py.mako", "migrations/script.py.mako.njk"),
      // The starter model's table and what the generated API queries: `codegen dev` (or `alembic upgrade head`) creates them.
      starter("migrations/versions/0001_initial.py", "migrations/versions/0001_initial.py.njk", context),
      // Several instances on one machine behind nginx, through PgBouncer to a primary and its replica (README.md).
      starter("deploy/nginx.conf", "deploy/nginx.conf.njk", context),
      starter("deploy/pgbouncer.ini", "deploy/pgbouncer.ini.njk", context),
      starter(`deploy/${pkg}@.service`, "deploy/instance.service.njk", context),
    ];
    if (root.auth) files.push(starter(`${pkg}/auth.py`, "package/auth.py.njk", context));
    if (root.opa) files.push(starter("policy/authz.rego", "policy/authz.rego.njk", context), starter("policy/authz_test.rego", "policy/authz_test.rego.njk", context));
    return files;
  }
}
