// Own-line comments inside brackets, laid out as ruff does: a comment before an element sits
// on its own line at the element's indent, one before the closing bracket follows the last
// element and its trailing comma. Their hard line breaks expand every enclosing group.

import type { DocBuilder } from "./doc.js";

/** Ruff's `leading_comments` inside brackets, where blank lines after a comment are dropped. */
export function leadingComments(f: DocBuilder, comments: readonly string[] | undefined): void {
  if (!comments) return;
  for (const comment of comments) {
    f.text(comment);
    f.hardLine();
  }
}

/**
 * Comments after the last element. Ruff makes them the element's trailing comments, printed
 * as line suffixes that wait for the next line break, that is after the trailing comma: here
 * they come right after that comma.
 */
export function closingComments(f: DocBuilder, comments: readonly string[] | undefined): void {
  if (!comments) return;
  for (const comment of comments) {
    f.hardLine();
    f.text(comment);
  }
}
