// A link to a related row the page knows by its key alone (a comment's `article_id`): named by
// that row's title once its resource's label hook has it, by the key until then, so a page
// shows a name wherever it can, never a bare id for long.

import { Link } from "react-router";

interface ReferenceLinkProps {
  to: string;
  rowKey: string;
  /** The resource's label hook: the title of the row whose key is `rowKey`, once loaded. */
  useLabel: (key: string) => string | undefined;
}

export function ReferenceLink({ to, rowKey, useLabel }: ReferenceLinkProps) {
  return <Link to={to}>{useLabel(rowKey) ?? rowKey}</Link>;
}
