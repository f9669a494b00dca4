// The syntax tree of one logical line: an expression tree close to Python's `ast` (and
// ruff's), plus what layout needs from the source: parentheses around a node and magic
// trailing commas, and the own-line comments inside brackets. Compound statements are
// represented by their header only.

interface Base {
  /** Pairs of redundant-looking parentheses written around the node in the source. */
  parens: number;
  /** Own-line comments before the node, which is an element of a display or a call argument. */
  leading?: string[];
}

/** A bracketed list of elements: own-line comments after its last element, before the closing bracket. */
interface Bracketed {
  closingComments?: string[];
}

export type Expr =
  | Name
  | Literal
  | Attribute
  | Call
  | Subscript
  | Slice
  | BinOp
  | BoolOp
  | Compare
  | UnaryOp
  | IfExp
  | Lambda
  | Await
  | Starred
  | Named
  | Tuple
  | List
  | SetExpr
  | Dict
  | Comprehension
  | DictComp;

export interface Name extends Base {
  k: "name";
  id: string;
}
export interface Literal extends Base {
  k: "literal";
  kind: "number" | "string" | "none" | "bool" | "ellipsis";
  text: string;
  /** The parts of an implicitly concatenated string (`"a" "b"`), else undefined. */
  parts?: string[];
  /** Whether a line break separates two of the parts in the source. */
  partsOnSeveralLines?: boolean;
}
export interface Attribute extends Base {
  k: "attr";
  value: Expr;
  attr: string;
}
/** A keyword argument's own-line comments are its `leading`; a positional one's are its value's. */
export type Argument = { k: "arg"; value: Expr } | Keyword;
export interface Keyword {
  k: "keyword";
  /** `null` for `**mapping`. */
  name: string | null;
  value: Expr;
  leading?: string[];
}
export interface Call extends Base, Bracketed {
  k: "call";
  func: Expr;
  args: Argument[];
  trailingComma: boolean;
}
export interface Subscript extends Base {
  k: "subscript";
  value: Expr;
  slice: Expr;
}
export interface Slice extends Base {
  k: "slice";
  lower: Expr | null;
  upper: Expr | null;
  step: Expr | null;
  /** Whether the second colon (`a[::2]`, `a[1:2:]`) was written. */
  hasStepColon: boolean;
}
export interface BinOp extends Base {
  k: "binop";
  op: string;
  left: Expr;
  right: Expr;
}
export interface BoolOp extends Base {
  k: "boolop";
  op: "and" | "or";
  values: Expr[];
}
export interface Compare extends Base {
  k: "compare";
  left: Expr;
  ops: string[];
  comparators: Expr[];
}
export interface UnaryOp extends Base {
  k: "unary";
  op: "not" | "-" | "+" | "~";
  operand: Expr;
}
export interface IfExp extends Base {
  k: "ifexp";
  body: Expr;
  test: Expr;
  orelse: Expr;
}
export interface Lambda extends Base {
  k: "lambda";
  params: Parameters | null;
  body: Expr;
  /**
   * Set when the lambda is the last expression of an assignment or `return`: its body
   * parenthesizes itself before the statement parenthesizes the lambda.
   */
  assignmentValue?: boolean;
}
export interface Await extends Base {
  k: "await";
  value: Expr;
}
export interface Starred extends Base {
  k: "starred";
  /** `*` or `**` (the latter only as a dict entry or call keyword, see `Dict` and `Argument`). */
  value: Expr;
}
export interface Named extends Base {
  k: "named";
  target: Expr;
  value: Expr;
}
export interface Tuple extends Base, Bracketed {
  k: "tuple";
  elts: Expr[];
  /** The tuple's own parentheses (not counted in `parens`). */
  parenthesized: boolean;
  trailingComma: boolean;
}
export interface List extends Base, Bracketed {
  k: "list";
  elts: Expr[];
  trailingComma: boolean;
}
export interface SetExpr extends Base, Bracketed {
  k: "set";
  elts: Expr[];
  trailingComma: boolean;
}
export interface DictItem {
  /** `null` for `**mapping`. */
  key: Expr | null;
  value: Expr;
  /** Own-line comments before `**mapping` (a keyed item's are its key's). */
  leading?: string[];
}
export interface Dict extends Base, Bracketed {
  k: "dict";
  items: DictItem[];
  trailingComma: boolean;
}
export interface ForClause {
  isAsync: boolean;
  target: Expr;
  iter: Expr;
  ifs: Expr[];
}
export interface Comprehension extends Base {
  k: "listcomp" | "setcomp" | "generator";
  elt: Expr;
  generators: ForClause[];
  /** For generators: whether they have their own parentheses (`f(x for x in y)` has none). */
  parenthesized: boolean;
}
export interface DictComp extends Base {
  k: "dictcomp";
  key: Expr;
  value: Expr;
  generators: ForClause[];
}

export interface Parameter {
  name: string;
  annotation: Expr | null;
  default: Expr | null;
}
export interface Parameters {
  posonly: Parameter[];
  args: Parameter[];
  vararg: Parameter | null;
  kwonly: Parameter[];
  kwarg: Parameter | null;
  trailingComma: boolean;
}

export interface Alias {
  name: string;
  asname: string | null;
}
export interface WithItem {
  expr: Expr;
  vars: Expr | null;
}

/** One logical line: a simple statement or the header of a compound statement. */
export type Stmt =
  | { k: "expr"; value: Expr }
  | { k: "assign"; targets: Expr[]; value: Expr }
  | { k: "annassign"; target: Expr; annotation: Expr; value: Expr | null }
  | { k: "augassign"; target: Expr; op: string; value: Expr }
  | { k: "return"; value: Expr | null }
  | { k: "raise"; exc: Expr | null; cause: Expr | null }
  | { k: "assert"; test: Expr; msg: Expr | null }
  | { k: "del"; targets: Expr[]; trailingComma: boolean }
  | { k: "keyword"; word: "pass" | "break" | "continue" }
  | { k: "import"; names: Alias[] }
  | { k: "importfrom"; level: number; module: string | null; names: Alias[] | "*"; trailingComma: boolean }
  | { k: "global"; word: "global" | "nonlocal"; names: string[] }
  | { k: "decorator"; expr: Expr }
  | { k: "def"; isAsync: boolean; name: string; params: Parameters; returns: Expr | null; stub: boolean }
  | { k: "class"; name: string; args: Call | null; stub: boolean }
  | { k: "test"; word: "if" | "elif" | "while"; test: Expr }
  | { k: "for"; isAsync: boolean; target: Expr; iter: Expr }
  | { k: "with"; isAsync: boolean; items: WithItem[]; parenthesized: boolean; trailingComma: boolean }
  | { k: "except"; star: boolean; type: Expr | null; name: string | null }
  | { k: "clause"; word: "else" | "try" | "finally" };
