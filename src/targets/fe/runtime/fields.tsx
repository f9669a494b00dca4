// Form inputs, one per kind of value. Every input has a visible label, marks required
// fields for eyes and screen readers, and shows its error right below it, linked with
// `aria-describedby` and flagged with `aria-invalid`.

import { type ReactNode, useId } from "react";
import { messages } from "./messages";

interface FrameProps {
  label: string;
  required?: boolean;
  error?: string;
  children: (ids: { input: string; described: string | undefined }) => ReactNode;
}

/** The label, the input, and the error message of one field. */
export function FieldFrame({ label, required, error, children }: FrameProps) {
  const input = useId();
  const errorId = `${input}-error`;
  return (
    <div className={error ? "field field-invalid" : "field"}>
      <label htmlFor={input}>
        {label}
        {required && (
          <span className="required" aria-hidden="true">
            {" *"}
          </span>
        )}
      </label>
      {children({ input, described: error ? errorId : undefined })}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

interface InputProps<T> {
  label: string;
  value: T;
  onChange: (value: T) => void;
  required?: boolean;
  error?: string;
}

/** Kinds of text input: the browser's own widgets for dates, numbers and e-mail. */
export type TextKind = "text" | "email" | "password" | "date" | "datetime-local" | "integer" | "decimal";

/** A one-line input for text, e-mail, numbers, dates and times. */
export function TextField({
  kind = "text",
  autoComplete,
  ...props
}: InputProps<string> & { kind?: TextKind; autoComplete?: string }) {
  const type = kind === "integer" || kind === "decimal" ? "number" : kind;
  return (
    <FieldFrame label={props.label} required={props.required} error={props.error}>
      {({ input, described }) => (
        <input
          id={input}
          type={type}
          autoComplete={autoComplete}
          step={kind === "integer" ? "1" : kind === "decimal" ? "any" : undefined}
          value={props.value}
          required={props.required}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

/** A multi-line input; `code` for JSON. */
export function TextAreaField({ code, ...props }: InputProps<string> & { code?: boolean }) {
  return (
    <FieldFrame label={props.label} required={props.required} error={props.error}>
      {({ input, described }) => (
        <textarea
          id={input}
          className={code ? "code" : undefined}
          rows={code ? 6 : 4}
          value={props.value}
          required={props.required}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}

/** A yes/no flag that cannot be null. */
export function CheckboxField(props: InputProps<boolean>) {
  const input = useId();
  const errorId = `${input}-error`;
  return (
    <div className={props.error ? "field field-check field-invalid" : "field field-check"}>
      <input
        id={input}
        type="checkbox"
        checked={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <label htmlFor={input}>{props.label}</label>
      {props.error && (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A select of `options` after a first *Not set* (""), which a required field's form refuses. */
function SelectField({ options, ...props }: InputProps<string> & { options: readonly { value: string; label: string }[] }) {
  return (
    <FieldFrame label={props.label} required={props.required} error={props.error}>
      {({ input, described }) => (
        <select
          id={input}
          value={props.value}
          required={props.required}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => props.onChange(event.target.value)}
        >
          <option value="">{messages().notSet}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** A flag that may also be "not set" (null). */
export function FlagSelectField(props: InputProps<string>) {
  const t = messages();
  const options = [
    { value: "true", label: t.yes },
    { value: "false", label: t.no },
  ];
  return <SelectField options={options} {...props} />;
}

/**
 * `in_review` → "In review": a member labelled from its value, the way the backend's filter
 * catalog labels one from its name (the document has only the value).
 */
function choiceLabel(member: string): string {
  const words = member.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/** One of an enum's members, or "not set". */
export function ChoiceField({ choices, ...props }: InputProps<string> & { choices: readonly (string | number)[] }) {
  const options = choices.map((member) => ({ value: String(member), label: choiceLabel(String(member)) }));
  return <SelectField options={options} {...props} />;
}
