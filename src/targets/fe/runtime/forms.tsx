// What every generated form shares: its draft state, its error messages (its own and the
// backend's, per field), and the frame around its inputs. A form never validates what the
// backend validates; it only turns inputs into the typed values the request body needs.

import { type FormEvent, type ReactNode, useState } from "react";
import { DraftParser } from "./draft";
import { type Explanation, explain } from "./errors";
import { messages } from "./messages";

const NO_ERRORS: Explanation = { fields: {}, form: null };

/** A draft and a setter per field: `set("title")` is the title input's `onChange`. */
export function useDraft<D extends object>(initial: D) {
  const [draft, setDraft] = useState<D>(initial);
  const set =
    <K extends keyof D>(key: K) =>
    (value: D[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));
  return { draft, set, replace: setDraft };
}

/** The messages a form shows, and the two ways they arise. */
export function useFormErrors(fields: readonly string[]) {
  const [errors, setErrors] = useState<Explanation>(NO_ERRORS);
  return {
    errors,
    /** The body `build` makes from the inputs, or null (with messages) when an input does not convert. */
    parse<B>(build: (parser: DraftParser) => B): B | null {
      const parser = new DraftParser();
      const body = build(parser);
      if (!parser.ok) {
        setErrors({ fields: parser.errors, form: messages().checkFields });
        return null;
      }
      setErrors(NO_ERRORS);
      return body;
    },
    /** Shows the backend's answer to a submission, each message at its field. */
    fail(error: unknown) {
      setErrors(explain(error, fields));
    },
    clear() {
      setErrors(NO_ERRORS);
    },
  };
}

interface FormFrameProps {
  label: string;
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: () => void;
  onCancel?: () => void;
  children: ReactNode;
}

/** A form named `label`: inputs, the form-wide error, and its buttons. */
export function FormFrame(props: FormFrameProps) {
  const t = messages();
  return (
    <form
      aria-label={props.label}
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      {props.children}
      <div className="buttons">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy ? t.saving : props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {t.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
