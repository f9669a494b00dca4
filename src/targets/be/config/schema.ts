// SPEC's `be.config.schema`: every config schema of the `be` target, and its inferred
// types, from one module. Each schema lives in the file of its domain; this file only
// re-exports them.

export { App, AppConfig, ResourceList } from "./apps.js";
export { CorsConfig, Origin } from "./cors.js";
export { type SessionCookie, type TokenSource } from "./sessions.js";
export { AuthConfig, ExcludePath, JwtAlgorithm, excludedBy, isHmac, type CustomAuth, type JwtAuth } from "./auth.js";
export { DatabaseConfig, defaultUrlEnv } from "./database.js";
export {
  ColumnRef,
  FieldList,
  FieldSpec,
  FieldType,
  JsonValue,
  LoadStrategy,
  ParamList,
  ScalarFieldType,
  type FieldSpecInput,
  type NestedField,
  type ResolvedFieldCore,
  type ScalarField,
  type LinkField,
  isScalar,
} from "./fields.js";
export { defaultResourceName, defaultRoutePrefix, pluralize, withArticle } from "./naming.js";
export { CrudOptions, OperationConfig, endpointKeys } from "./operations.js";
export { BUILTIN_MODIFIERS, ModifierConfig, ModifierList } from "./modifiers.js";
export {
  ALLOWED_OPERATORS,
  DEFAULT_OPERATORS,
  FilterConfig,
  FilterOperator,
  FilterValueKind,
  LiteralType,
  RESERVED_PARAMS,
  StructuredFilterField,
} from "./filters.js";
export { OrderConfig, SortDirection } from "./ordering.js";
export { DEFAULT_PAGINATION, PaginateConfig, PaginationMode } from "./pagination.js";
export { SearchConfig, SearchStrategy } from "./search.js";
export { LinksConfig, READ_REPRESENTATION, RepresentationConfig, RepresentationList } from "./representations.js";
export { ExporterName, SamplerName, TelemetryConfig } from "./telemetry.js";
export { RateLimitConfig, RateLimitSetting, TrustedProxy } from "./rate-limit.js";
export { CommTypeConfig, CommsConfig, CommsTargetConfig, KilnCommTypeConfig, KilnCommsConfig, KilnTemplatePath, TemplateSource, isKilnComms } from "./comms.js";
export { AppList, ProjectConfig, type ResolvedApp, type ResolvedResource } from "./project.js";
export { OperationList, PkType, ResourceConfig } from "./resources.js";
export { PostHookPath, PreHookPath, SerializerConfig, hooksUsed } from "./hooks.js";
export { DEFAULT_GROUP_CLAIM, GroupConfig, GroupList, GuardPath, VisiblePath, authzKeysUsed, groupsNamed, type AuthzLevel } from "./authz.js";
export { OPA_DEFAULTS, OpaConfig, OpaSetting } from "./opa.js";
