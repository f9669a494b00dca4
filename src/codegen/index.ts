// The engine's public API (`import … from "codegen-kit"`). Targets import from here only.
// Nothing in the engine knows of a particular language or framework.

export { assemble, IMPORTS_KEY, type AssembleOptions } from "./assembler.js";
export { bannerFor, withBanner } from "./banner.js";
export { loadConfig, evaluateConfigFile, type LoadConfigOptions } from "./config.js";
export { configIssuesOf, formatConfigPath } from "./config-path.js";
export type { BuildContext } from "./context.js";
export { Engine } from "./engine.js";
export {
  CLIError,
  ConfigError,
  GenerationError,
  KeyError,
  LookupError,
  ValueError,
  type ConfigIssue,
} from "./errors.js";
export { FileFragment, SnippetFragment, type Fragment } from "./fragments.js";
export { FileSystemError } from "./fs-errors.js";
export { COMMIT_MARK, JOURNAL_FILE, recoverInterruptedRun, type Recovery } from "./journal.js";
export { LOCK_FILE, LockTimeoutError, waitForUnlocked, withOutputLock, type LockHolder, type LockOptions } from "./lock.js";
export { PHASES, PhaseTimer, type Phase, type PhaseSpan } from "./timings.js";
export { buildFiles } from "./build-output.js";
export {
  countActions,
  defaultOutDir,
  driftOf,
  generate,
  planGeneration,
  type GenerateOptions,
  type GenerateResult,
  type WriteResult,
} from "./generate.js";
export { clean, type CleanOptions, type CleanResult } from "./clean.js";
export { validateGeneration, type ValidateOptions, type ValidateResult } from "./validate.js";
export { watchGeneration, type WatchHandlers, type WatchRun, type Watcher } from "./watch.js";
export { fnmatch } from "./globs.js";
export { isRecord } from "./records.js";
export { SCHEMA_KEY, configJsonSchema, inputJsonSchema, type JsonSchema } from "./json-schema.js";
export { configReference } from "./schema-reference.js";
export { loadImportFormatters } from "./import-formatters.js";
export type { FormatAll, FormatContext } from "./format.js";
export {
  MANIFEST_FILE,
  formatManifest,
  manifestPath,
  readManifest,
  updateManifest,
  type Manifest,
  type ManifestUpdate,
  type RunRecord,
  type RunRecords,
  type StoredManifest,
} from "./manifest.js";
export {
  ImportCollector,
  formatImports,
  importFormatterFor,
  registerImportFormatter,
  type ImportFormatOptions,
  type ImportFormatter,
} from "./imports.js";
export { Name, prefixImport } from "./naming.js";
export {
  EmptyOptions,
  OperationMeta,
  getOperationMeta,
  operation,
  type Operation,
  type OperationClass,
  type ValidationIssue,
} from "./operation.js";
export { Handle, StaticFile, type IfExists } from "./outputs.js";
export { entryPoints, loadEntryPoint, type EntryPoint } from "./plugins.js";
export { OperationRegistry, loadRegistry } from "./registry.js";
export { deleteStale, planDeletions, sha256 } from "./prune.js";
export { RenderRegistry, registry, type RenderCtx, type Renderer } from "./render.js";
export { PROJECT, Scope, ScopeTree, discoverScopes, scoped } from "./scopes.js";
export { sourcePath } from "./source-path.js";
export { type AppliedOperation, BuildStore } from "./store.js";
export { DuplicateTargetError, discoverTargets, loadTarget, packagePrefixOf, targetNames, type Target } from "./target.js";
export { createTemplateEnv, precompileTemplates, renderTemplate } from "./templating.js";
export { type TemplateVariable, templateVariables } from "./template-variables.js";
export { templateReference } from "./template-reference.js";
export { UserTemplatesConfig } from "./user-templates.js";
export {
  GeneratedFile,
  applyPlan,
  planWrites,
  writeFiles,
  type KeptFile,
  type ApplyOptions,
  type ManifestWrite,
  type PlanAction,
  type PlannedChange,
  type PlannedDeletion,
  type PlannedWrite,
  type RecordedFile,
  type WriteAction,
} from "./writer.js";
