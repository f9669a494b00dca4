// How the backend's error answers reach the pages: every failed call becomes an `ApiError`
// holding the status and the JSON body, and `explain` turns one into messages, each at the
// form field it concerns (422 `loc`, 409 constraint name) or for the whole form. The
// backend's own messages are shown as it wrote them.

import { messages } from "./messages";

/** A failed call: the HTTP status (0 when the backend could not be reached) and the body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(describe(status, body));
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

/** Messages of a failed submission: per field, and one for the whole form. */
export interface Explanation {
  fields: Record<string, string>;
  form: string | null;
}

interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
}

function isValidationIssue(value: unknown): value is ValidationIssue {
  if (typeof value !== "object" || value === null) return false;
  const issue = value as Record<string, unknown>;
  return Array.isArray(issue.loc) && typeof issue.msg === "string";
}

function detailOf(body: unknown): unknown {
  return typeof body === "object" && body !== null
    ? (body as Record<string, unknown>).detail
    : undefined;
}

/** The backend's own message, else one of the catalogue for the status. */
function describe(status: number, body: unknown): string {
  const t = messages();
  if (status === 0) return t.unreachable;
  const detail = detailOf(body);
  if (typeof detail === "string" && detail !== "") return detail;
  if (status === 401) return t.pleaseSignIn;
  if (status === 403) return t.forbidden;
  if (status === 404) return t.missing;
  if (status === 409) return t.conflict;
  if (status === 422) return t.invalid;
  return t.answered(status);
}

/**
 * The field of `fields` a constraint name is about: `uq_authors_email` → `email`,
 * `fk_articles_author_id_authors` → `author_id` (the longest field name that appears
 * between underscores wins).
 */
export function fieldOfConstraint(
  constraint: string,
  fields: readonly string[],
): string | undefined {
  const padded = `_${constraint}_`;
  return fields
    .filter((field) => padded.includes(`_${field}_`))
    .sort((a, b) => b.length - a.length)[0];
}

/**
 * Splits the error of a submission into messages per field of `fields` and one for the
 * form: a 422's issues land at the body field they name, a 409's at the field its
 * constraint names; anything else is a message for the whole form.
 */
export function explain(error: unknown, fields: readonly string[]): Explanation {
  const explanation: Explanation = { fields: {}, form: null };
  if (!(error instanceof ApiError)) {
    explanation.form = error instanceof Error ? error.message : String(error);
    return explanation;
  }
  const detail = detailOf(error.body);
  if (error.status === 422 && Array.isArray(detail)) {
    const general: string[] = [];
    for (const issue of detail.filter(isValidationIssue)) {
      const [where, field] = issue.loc;
      if (where === "body" && typeof field === "string" && fields.includes(field)) {
        explanation.fields[field] ??= issue.msg;
      } else {
        general.push(issue.msg);
      }
    }
    if (general.length > 0) explanation.form = general.join(" ");
    return explanation;
  }
  const constraint =
    typeof error.body === "object" && error.body !== null
      ? (error.body as Record<string, unknown>).constraint
      : undefined;
  const field =
    error.status === 409 && typeof constraint === "string"
      ? fieldOfConstraint(constraint, fields)
      : undefined;
  if (field !== undefined) explanation.fields[field] = error.message;
  else explanation.form = error.message;
  return explanation;
}
