// Form drafts: what the inputs hold (text, or a flag for checkboxes) and the typed values a
// request body needs. `DraftParser` converts a draft field by field, recording a message
// per field it cannot convert; everything else (formats, ranges, uniqueness) is the
// backend's to check, and its answers come back through `explain`.

import { messages } from "./messages";

/** How a body treats an empty input: an error, left out (the backend's default), or null. */
export type Presence = "required" | "optional" | "nullable";

type Value<T, P extends Presence> = P extends "required"
  ? T
  : P extends "optional"
    ? T | undefined
    : T | null;

/** A value JSON can hold: what `JSON.parse` gives, and what a backend's JSON field takes. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Messages of the fields a draft could not be converted at. */
export type DraftErrors = Record<string, string>;

/** Converts input values to body values, collecting a message per field it rejects. */
export class DraftParser {
  readonly errors: DraftErrors = {};

  private empty<T, P extends Presence>(
    field: string,
    presence: P,
    placeholder: T,
  ): Value<T, P> {
    if (presence === "required") this.errors[field] = messages().required;
    return (
      presence === "required"
        ? placeholder
        : presence === "optional"
          ? undefined
          : null
    ) as Value<T, P>;
  }

  /** Text as typed: str, email, uuid and date fields, and references by string key. */
  text<P extends Presence>(field: string, input: string, presence: P): Value<string, P> {
    return input === "" ? this.empty(field, presence, "") : (input as Value<string, P>);
  }

  /** A whole or decimal number; the backend decides whether a fraction is allowed. */
  number<P extends Presence>(field: string, input: string, presence: P): Value<number, P> {
    if (input.trim() === "") return this.empty(field, presence, 0);
    const value = Number(input);
    if (!Number.isFinite(value)) {
      this.errors[field] = messages().enterNumber;
      return 0 as Value<number, P>;
    }
    return value as Value<number, P>;
  }

  /** A `datetime-local` input's value as an ISO 8601 instant. */
  dateTime<P extends Presence>(field: string, input: string, presence: P): Value<string, P> {
    if (input === "") return this.empty(field, presence, "");
    const value = new Date(input);
    if (Number.isNaN(value.getTime())) {
      this.errors[field] = messages().enterDateTime;
      return "" as Value<string, P>;
    }
    return value.toISOString() as Value<string, P>;
  }

  /** A select of yes / no (and "not set" for a nullable flag). */
  flag<P extends Presence>(field: string, input: string, presence: P): Value<boolean, P> {
    return input === "" ? this.empty(field, presence, false) : ((input === "true") as Value<boolean, P>);
  }

  /** One of an enum's members (strings or numbers), from a select of them; anything else counts as nothing chosen. */
  choice<C extends string | number, P extends Presence>(field: string, input: string, presence: P, members: readonly C[]): Value<C, P> {
    const member = members.find((candidate) => String(candidate) === input);
    return member === undefined ? this.empty(field, presence, members[0]!) : (member as Value<C, P>);
  }

  /** A JSON object typed into a text area. */
  json<P extends Presence>(
    field: string,
    input: string,
    presence: P,
  ): Value<{ [key: string]: JsonValue }, P> {
    if (input.trim() === "") return this.empty(field, presence, {});
    try {
      const value = JSON.parse(input) as JsonValue;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        return value as Value<{ [key: string]: JsonValue }, P>;
      }
    } catch {
      // Reported below, like any other value that is not an object.
    }
    this.errors[field] = messages().enterJson;
    return {} as Value<{ [key: string]: JsonValue }, P>;
  }

  /** True when every field converted. */
  get ok(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

/** A value of the backend as a text input shows it: "" for null. */
export function inputText(value: string | number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/** A flag as a select shows it: "true", "false", or "" for null. */
export function inputFlag(value: boolean | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/** An ISO 8601 instant as a `datetime-local` input shows it, in the browser's time zone. */
export function inputDateTime(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A JSON object as a text area shows it. */
export function inputJson(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value, null, 2);
}
