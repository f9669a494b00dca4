// Every word the pages and their runtime show, in one catalogue: English here, other languages
// in src/custom/messages.ts. A translation is typed `Messages`, a type derived from the English
// catalogue, so one that lacks a message (or gets its parameters wrong) does not compile.
// Labels from the config (a resource's name, a field's label) are not messages: they are
// passed in, as the config has them.

/** "Article" → "article": a label inside a sentence. */
const lower = (label: string) => label.charAt(0).toLowerCase() + label.slice(1);

/** "1 article", "3 articles". */
const counted = (count: number, singular: string, plural: string) =>
  `${count} ${count === 1 ? lower(singular) : plural.toLowerCase()}`;

/** The English catalogue: the pages' language unless another is chosen. */
export const en = {
  // The shell.
  skipToContent: "Skip to content",
  menu: "Menu",
  resources: "Resources",
  loading: "Loading…",
  notFound: "Not found",
  notFoundText: "Nothing is here. It may have been deleted, or the address is mistyped.",
  backToStart: "Back to the start",
  couldNotLoad: (reason: string) => `Could not load this page: ${reason}`,
  tryAgain: "Try again",
  notifications: "Notifications",
  dismiss: "Dismiss",
  // Sign-in.
  signIn: "Sign in",
  signOut: "Sign out",
  signedInAs: (username: string) => `Signed in as ${username}`,
  username: "Username",
  password: "Password",
  wrongCredentials: "Wrong username or password.",
  notAllowed: "Not allowed",
  notAllowedText: "Your account may not use this page.",
  // Lists.
  listCaption: (plural: string, page: number) => `${plural}, page ${page}`,
  newRow: (label: string) => `New ${lower(label)}`,
  search: "Search",
  searchRows: (plural: string) => `Search ${plural.toLowerCase()}`,
  nothingToShow: "Nothing to show.",
  orderBy: (column: string) => `Order by ${column}`,
  pages: "Pages",
  previous: "Previous",
  next: "Next",
  pageNumber: (page: number) => `Page ${page}`,
  pageOfTotal: (page: number, pages: number, total: number) =>
    `Page ${page} of ${pages}, ${total} ${total === 1 ? "row" : "rows"}`,
  rowsPerPage: "Rows per page",
  columns: "Columns",
  columnsShown: "Columns shown",
  savedViews: "Saved views",
  view: "View",
  chooseView: "Choose a view",
  noViews: "No views saved yet",
  applyView: "Apply view",
  deleteView: "Delete view…",
  deleteViewAsk: (name: string) => `Delete the view “${name}”?`,
  viewDeleted: (name: string) => `View “${name}” deleted.`,
  viewName: "Name of the view",
  saveView: "Save the current view",
  viewSaved: (name: string) => `View “${name}” saved.`,
  exportCsv: "Export CSV",
  exporting: (rows: number) => `${rows} rows…`,
  exported: (rows: number) => `${rows} rows exported.`,
  exportFailed: (reason: string) => `Export failed: ${reason}`,
  // Choosing rows.
  selectAll: "Select every row of this page",
  selectRow: (name: string) => `Select ${name}`,
  selected: (count: number, singular: string, plural: string) => `${counted(count, singular, plural)} selected`,
  deleteSelected: "Delete selected…",
  deleteRows: (count: number, singular: string, plural: string) => `Delete ${counted(count, singular, plural)}?`,
  deletedRows: (count: number, singular: string, plural: string) => `${counted(count, singular, plural)} deleted.`,
  notDeleted: (count: number, singular: string, plural: string) =>
    `${counted(count, singular, plural)} could not be deleted:`,
  willBeDeleted: "These will be deleted. This cannot be undone.",
  runOnRows: (action: string, count: number, singular: string, plural: string) =>
    `${action}: ${counted(count, singular, plural)}?`,
  ranOnRows: (action: string, count: number, singular: string, plural: string) =>
    `${action}: done for ${counted(count, singular, plural)}.`,
  failedOnRows: (action: string, count: number, singular: string, plural: string) =>
    `${action} failed for ${counted(count, singular, plural)}:`,
  runsOneByOne: (action: string) => `${action} runs on each of these, one after another.`,
  // Filters.
  filters: "Filters",
  filtersSet: (count: number) => `Filters (${count} set)`,
  filterRows: (plural: string) => `Filter ${plural.toLowerCase()}`,
  clearFilters: "Clear filters",
  any: "Any",
  not: "not",
  fieldNot: (field: string) => `${field}: not`,
  fieldFrom: (field: string) => `${field} from`,
  fieldTo: (field: string) => `${field} to`,
  fieldAnyOf: (field: string) => `${field}: any of`,
  fieldIs: (field: string) => `${field} is`,
  isSet: "set",
  isEmpty: "empty",
  // Values.
  yes: "Yes",
  no: "No",
  notSet: "Not set",
  noMatches: "No matches",
  chosen: (field: string) => `${field}: chosen`,
  remove: (name: string) => `Remove ${name}`,
  // Records, forms and actions.
  edit: "Edit",
  editRow: (label: string) => `Edit ${lower(label)}`,
  editTitle: (title: string) => `Edit ${title}`,
  delete: "Delete",
  deleteRow: (label: string) => `Delete this ${lower(label)}?`,
  willDelete: (name: string) => `“${name}” will be deleted. This cannot be undone.`,
  deleted: (label: string) => `${label} deleted.`,
  created: (label: string) => `${label} created.`,
  saved: (label: string) => `${label} saved.`,
  create: "Create",
  save: "Save",
  saving: "Saving…",
  cancel: "Cancel",
  run: "Run",
  actions: "Actions",
  askRun: (action: string) => `${action}?`,
  runNow: (action: string) => `Run “${action}” now?`,
  done: (action: string) => `${action}: done.`,
  result: "Result:",
  failed: (action: string, reason: string) => `${action}: ${reason}`,
  leaveUnsaved: "Leave without saving?",
  leave: "Leave",
  unsavedText: "Your changes on this page are not saved yet.",
  checkFields: "Check the fields marked below.",
  required: "Required.",
  enterNumber: "Enter a number.",
  enterDateTime: "Enter a date and time.",
  enterJson: 'Enter a JSON object, like {"key": "value"}.',
  // Files.
  file: "File",
  upload: "Upload",
  uploadRow: (label: string) => `Upload ${lower(label)}`,
  uploadProgress: "Upload progress",
  uploading: (percent: number) => `Uploading… ${percent}%`,
  uploaded: (label: string) => `${label} uploaded.`,
  chooseFile: "Choose a file.",
  download: "Download",
  downloadFile: (name: string) => `Download ${name}`,
  downloading: "Downloading…",
  storageRefused: (status: number) => `The file storage refused the file (${status}).`,
  storageUnreachable: "The file storage could not be reached.",
  // The backend's answers without a message of their own.
  unreachable: "The backend could not be reached.",
  pleaseSignIn: "Please sign in.",
  forbidden: "You are not allowed to do this.",
  missing: "Not found.",
  conflict: "This conflicts with existing data.",
  invalid: "Some values are not valid.",
  answered: (status: number) => `The backend answered ${status}.`,
};

/**
 * A catalogue in any language: every message of the English one, a text for a text and a
 * function of the same parameters for a function. A missing or extra message fails `tsc`.
 */
export type Messages = {
  readonly [K in keyof typeof en]: (typeof en)[K] extends (...args: infer A) => string ? (...args: A) => string : string;
};

/** Catalogues by language tag (`fr`, `de`, `pt-BR`), besides English. */
export type Translations = Readonly<Record<string, Messages>>;

let current: Messages = en;

/** The messages of the language the pages show. */
export function messages(): Messages {
  return current;
}

/**
 * The catalogue for the first of `wanted` (language tags, most wanted first) that `translations`
 * or English has: a tag as it is (`pt-BR`), else its language (`pt`). English when none is.
 */
export function pickLanguage(translations: Translations, wanted: readonly string[]): { tag: string; messages: Messages } {
  const known = new Map<string, { tag: string; messages: Messages }>([["en", { tag: "en", messages: en }]]);
  for (const [tag, catalogue] of Object.entries(translations)) known.set(tag.toLowerCase(), { tag, messages: catalogue });
  for (const tag of wanted) {
    const found = known.get(tag.toLowerCase()) ?? known.get(tag.toLowerCase().split("-")[0]!);
    if (found) return found;
  }
  return known.get("en")!;
}

/** Shows the pages in `catalogue` from now on: set once, before the first render. */
export function setMessages(catalogue: Messages): void {
  current = catalogue;
}
