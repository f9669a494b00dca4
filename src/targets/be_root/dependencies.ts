// The PyPI requirements a new backend project starts with, written into its pyproject.toml.
// The pins are the versions codegen's end-to-end tests run generated code against
// (test/e2e/requirements.txt); a test fails when the two disagree.

/** Runtime requirements of every generated backend, sorted by name. */
export const RUNTIME_REQUIREMENTS: readonly string[] = [
  "alembic==1.20.1",
  "asyncpg==0.32.0",
  "email-validator==2.4.0",
  "fastapi==0.165.0",
  "httptools==0.7.1",
  "pydantic==2.14.3",
  "sqlalchemy[asyncio]==2.1.9",
  "uvicorn==0.54.0",
];

/** Extra runtime requirements of a backend with JWT authentication (the token endpoint parses a form). */
export const AUTH_REQUIREMENTS: readonly string[] = ["pyjwt==2.15.1", "python-multipart==0.0.34"];

/** Extra runtime requirements of a backend that asks OPA (one pooled async HTTP client per process). */
export const OPA_REQUIREMENTS: readonly string[] = ["httpx==0.28.1"];

/** Extra runtime requirements of a backend with file resources (the S3 client of `runtime/files.py`). */
export const FILES_REQUIREMENTS: readonly string[] = ["botocore==1.44.8"];

/** Development requirements: generated tests and linting. */
export const DEV_REQUIREMENTS: readonly string[] = [
  "httpx==0.28.1",
  "pytest==9.2.0",
  "pytest-asyncio==1.5.0",
  "ruff==0.17.4",
];

/** The distribution name of a requirement, without extras or version: `sqlalchemy[asyncio]==2` → `sqlalchemy`. */
export function requirementName(requirement: string): string {
  return requirement.split(/[[=<>!~;\s]/, 1)[0]!.toLowerCase();
}

/** The runtime requirements of a project, sorted by name. */
export function runtimeRequirements(options: { auth: boolean; opa?: boolean; files?: boolean }): string[] {
  const all = [
    ...RUNTIME_REQUIREMENTS,
    ...(options.auth ? AUTH_REQUIREMENTS : []),
    ...(options.opa ? OPA_REQUIREMENTS : []),
    ...(options.files ? FILES_REQUIREMENTS : []),
  ];
  return all.sort((a, b) => requirementName(a).localeCompare(requirementName(b)));
}
