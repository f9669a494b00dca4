// The kinds of optional parentheses ruff puts around an expression (always, when the content
// breaks, when splitting inside the content's own brackets is not enough) and the line breaks
// that exist only inside parentheses.

import { type DocBuilder, isParenthesizedLevel, PAREN } from "./doc.js";

/** `(content)` whose content indents and breaks as a group (ruff's `parenthesized`). */
export function parenthesized(f: DocBuilder, left: string, content: () => void, right: string): void {
  const outer = f.level;
  f.withLevel(PAREN, () => {
    f.text(left);
    const indented = () => f.group(() => f.softBlockIndent(content));
    // Inside optional parentheses, expanding these brackets must not force the optional ones.
    if (outer.k === "expr" && outer.id !== 0) f.fitsExpanded({ mode: "flat", id: outer.id }, indented);
    else indented();
    f.text(right);
  });
}

export function emptyParenthesized(f: DocBuilder, left: string, right: string): void {
  f.group(() => {
    f.text(left);
    f.text(right);
  });
}

/** Parentheses that appear only if the content still does not fit after splitting its own brackets. */
export function optionalParentheses(f: DocBuilder, content: () => void): void {
  const id = f.groupId();
  f.withLevel({ k: "expr", id }, () =>
    f.group(
      () => {
        f.ifBreaks(() => f.text("("));
        f.indentIfBreaks(id, () => {
          f.softLine();
          content();
        });
        f.softLine();
        f.ifBreaks(() => f.text(")"));
      },
      { id },
    ),
  );
}

export function parenthesizeIfExpands(f: DocBuilder, content: () => void, indent = true): void {
  f.withLevel(PAREN, () =>
    f.group(() => {
      f.ifBreaks(() => f.text("("));
      if (indent) f.softBlockIndent(content);
      else content();
      f.ifBreaks(() => f.text(")"));
    }),
  );
}

export function inParenthesesOnlyGroup(f: DocBuilder, content: () => void): void {
  const level = f.level;
  if (level.k === "expr" && level.id !== 0) f.conditionalGroup({ mode: "expanded", id: level.id }, content);
  else if (level.k === "paren") f.group(content);
  else content();
}

export function inParenthesesOnlySoftLineOrSpace(f: DocBuilder): void {
  const level = f.level;
  if (level.k === "expr" && level.id !== 0) {
    f.ifBreaks(() => f.softLineOrSpace(), level.id);
    f.ifFits(() => f.space(), level.id);
  } else if (level.k === "paren") f.softLineOrSpace();
  else f.space();
}

export function inParenthesesOnlySoftLine(f: DocBuilder): void {
  const level = f.level;
  if (level.k === "expr" && level.id !== 0) f.ifBreaks(() => f.softLine(), level.id);
  else if (level.k === "paren") f.softLine();
}

export function inParenthesesOnlyIfBreaks(f: DocBuilder, content: () => void): void {
  const level = f.level;
  if (level.k === "expr" && level.id !== 0) f.ifBreaks(content, level.id);
  else if (level.k === "paren") f.ifBreaks(content);
}

