// The controls of one filter field, by the kind of its values and the operators the catalog
// offers: a select or a picker (eq, with a *not* toggle for neq), a group of checkboxes
// (in) or, for references, a picker of several rows (in), text or a from/to range, and an *is set / is empty* select (is_null). Each writes
// its own query parameter (`field`, `field__neq`, `field__in`, `field__is_null`, …).

import { type ReactNode, useId, useState } from "react";
import { DraftInput, INPUT_TYPES } from "./draft-input";
import { FieldFrame } from "./fields";
import type { FilterFieldPresentation } from "./filters";
import { useListParams } from "./list";
import {
  type ChoiceLabelHook,
  type ChoicesHook,
  ReferencePicker,
} from "./picker";
import { ReferenceSet } from "./reference-set";
import {
  type CatalogChoice,
  type CatalogFilter,
  type ValuesLookup,
  seenLabels,
  useValueChoices,
} from "./values";
import { messages } from "./messages";

interface ControlProps {
  filter: CatalogFilter;
  resource: string;
  lookup: ValuesLookup;
  presentation: FilterFieldPresentation;
}

const has = (filter: CatalogFilter, op: string) =>
  filter.operators.includes(op);

/** The query parameter of `op` on `field`: `author_id`, `rating__gte`. */
const parameter = (field: string, op: string) =>
  op === "eq" ? field : `${field}__${op}`;

/** The field's controls: one for its values, and one for is_null when offered. */
export function FilterControl(props: ControlProps) {
  const { filter, presentation } = props;
  return (
    <>
      <ValueControl {...props} />
      {has(filter, "is_null") && (
        <PresenceSelect field={filter.field} label={presentation.label} />
      )}
    </>
  );
}

function ValueControl({
  filter,
  resource,
  lookup,
  presentation,
}: ControlProps) {
  const { params, change } = useListParams();
  const { values } = filter;
  const { label } = presentation;
  const t = messages();
  const set = (name: string) => (value: string) =>
    change({ [name]: value === "" ? null : value });
  if (values.kind === "enum" && has(filter, "in")) {
    return (
      <ChoiceGroup
        label={label}
        field={filter.field}
        choices={values.choices}
      />
    );
  }
  if (
    values.kind === "enum" ||
    values.kind === "bool" ||
    values.kind === "ref" ||
    values.kind === "self"
  ) {
    const reference = values.kind === "ref" || values.kind === "self";
    const useChoices = (search: string) =>
      useValueChoices(lookup, { resource, field: filter.field }, search);
    const useChoiceLabel =
      presentation.useChoiceLabel ?? ((key: string) => seenLabels.get(key));
    const single = (has(filter, "eq") || has(filter, "neq")) && (
      <Negatable filter={filter} label={label}>
        {(name, write) =>
          reference ? (
            <ReferencePicker
              label={label}
              value={params.get(name) ?? ""}
              onChange={write}
              useChoices={useChoices}
              useChoiceLabel={useChoiceLabel}
            />
          ) : (
            <FieldFrame label={label}>
              {({ input }) => (
                <select
                  id={input}
                  value={params.get(name) ?? ""}
                  onChange={(event) => write(event.target.value)}
                >
                  <option value="">{t.any}</option>
                  {(values.kind === "enum" ? values.choices : flagChoices()).map(
                    (choice) => (
                      <option
                        key={String(choice.value)}
                        value={String(choice.value)}
                      >
                        {choice.label}
                      </option>
                    ),
                  )}
                </select>
              )}
            </FieldFrame>
          )
        }
      </Negatable>
    );
    return (
      <>
        {single}
        {reference && has(filter, "in") && (
          <ReferenceIn
            field={filter.field}
            label={label}
            useChoices={useChoices}
            useChoiceLabel={useChoiceLabel}
          />
        )}
      </>
    );
  }
  const type = values.kind === "literal" ? INPUT_TYPES[values.type] : "text";
  if (has(filter, "gte") && has(filter, "lte")) {
    return (
      <>
        <DraftInput
          label={t.fieldFrom(label)}
          type={type}
          value={params.get(`${filter.field}__gte`) ?? ""}
          onCommit={set(`${filter.field}__gte`)}
        />
        <DraftInput
          label={t.fieldTo(label)}
          type={type}
          value={params.get(`${filter.field}__lte`) ?? ""}
          onCommit={set(`${filter.field}__lte`)}
        />
      </>
    );
  }
  const op = textOperator(filter);
  if (op === undefined) return null;
  const name = parameter(filter.field, op);
  return (
    <DraftInput
      label={label}
      type={type}
      value={params.get(name) ?? ""}
      onCommit={set(name)}
    />
  );
}

/** A flag's values, in the pages' language. */
const flagChoices = (): CatalogChoice[] => [
  { value: true, label: messages().yes },
  { value: false, label: messages().no },
];

/** The operator of a typed value: text is searched within, the rest compared equal. */
function textOperator(filter: CatalogFilter): string | undefined {
  const text =
    filter.values.kind === "free_text" ||
    (filter.values.kind === "literal" && filter.values.type === "str");
  const preferred = text ? ["contains", "starts_with", "eq"] : ["eq"];
  return (
    preferred.find((op) => has(filter, op)) ??
    filter.operators.find((op) => !["in", "neq", "is_null"].includes(op))
  );
}

/**
 * A single-value control with, when the catalog offers both eq and neq, a *not* toggle that
 * moves the value from `field` to `field__neq`.
 */
function Negatable({
  filter,
  label,
  children,
}: {
  filter: CatalogFilter;
  label: string;
  children: (name: string, write: (value: string) => void) => ReactNode;
}) {
  const { params, change } = useListParams();
  const toggle = useId();
  const t = messages();
  // Toggled before a value is chosen, the toggle is only this page's until one is.
  const [wanted, setWanted] = useState(false);
  const eq = parameter(filter.field, "eq");
  const neq = parameter(filter.field, "neq");
  const negated =
    !has(filter, "eq") ||
    (has(filter, "neq") && (params.has(neq) || (wanted && !params.has(eq))));
  const name = negated ? neq : eq;
  const write = (value: string) =>
    change({ [name]: value === "" ? null : value });
  if (!has(filter, "eq") || !has(filter, "neq")) return children(name, write);
  return (
    <div className="negatable">
      {children(name, write)}
      <span className="filter-not">
        <input
          id={toggle}
          type="checkbox"
          aria-label={t.fieldNot(label)}
          checked={negated}
          onChange={(event) => {
            const value = params.get(name);
            setWanted(event.target.checked);
            if (value === null) return;
            change({ [name]: null, [event.target.checked ? neq : eq]: value });
          }}
        />
        <label htmlFor={toggle}>{t.not}</label>
      </span>
    </div>
  );
}

/** The values of an enum as checkboxes: any number of them, sent as `field__in=a,b`. */
function ChoiceGroup({
  label,
  field,
  choices,
}: {
  label: string;
  field: string;
  choices: CatalogChoice[];
}) {
  const { params, change } = useListParams();
  const name = parameter(field, "in");
  // `field=value` in a bookmark or a hand-written URL shows as one checked value.
  const chosen = [
    ...new Set([
      ...(params.get(name)?.split(",") ?? []),
      ...(params.has(field) ? [params.get(field)!] : []),
    ]),
  ].filter((value) => value !== "");
  const toggle = (value: string, on: boolean) => {
    const next = on
      ? [...chosen, value]
      : chosen.filter((candidate) => candidate !== value);
    change({ [field]: null, [name]: next.length > 0 ? next.join(",") : null });
  };
  return (
    <fieldset className="choices">
      <legend>{label}</legend>
      {choices.map((choice) => {
        const value = String(choice.value);
        return (
          <label key={value}>
            <input
              type="checkbox"
              checked={chosen.includes(value)}
              onChange={(event) => toggle(value, event.target.checked)}
            />
            {choice.label}
          </label>
        );
      })}
    </fieldset>
  );
}

/**
 * Several rows of a referenced resource (reference-set.tsx), sent as one query parameter of
 * comma-separated keys, `field__in=a,b`, so a view stays bookmarkable.
 */
function ReferenceIn({
  field,
  label,
  useChoices,
  useChoiceLabel,
}: {
  field: string;
  label: string;
  useChoices: ChoicesHook;
  useChoiceLabel: ChoiceLabelHook;
}) {
  const { params, change } = useListParams();
  const name = parameter(field, "in");
  const chosen = (params.get(name)?.split(",") ?? []).filter(
    (key) => key !== "",
  );
  const write = (keys: string[]) =>
    change({ [name]: keys.length > 0 ? keys.join(",") : null });
  return (
    <ReferenceSet
      label={messages().fieldAnyOf(label)}
      name={label}
      keys={chosen}
      onAdd={(choice) => write([...chosen, choice.key])}
      onRemove={(key) => write(chosen.filter((other) => other !== key))}
      useChoices={useChoices}
      useChoiceLabel={useChoiceLabel}
    />
  );
}

/** Whether the field has a value at all: `field__is_null=false` (set) or `true` (empty). */
function PresenceSelect({ field, label }: { field: string; label: string }) {
  const { params, change } = useListParams();
  const name = parameter(field, "is_null");
  const t = messages();
  return (
    <FieldFrame label={t.fieldIs(label)}>
      {({ input }) => (
        <select
          id={input}
          value={params.get(name) ?? ""}
          onChange={(event) =>
            change({
              [name]: event.target.value === "" ? null : event.target.value,
            })
          }
        >
          <option value="">{t.any}</option>
          <option value="false">{t.isSet}</option>
          <option value="true">{t.isEmpty}</option>
        </select>
      )}
    </FieldFrame>
  );
}
