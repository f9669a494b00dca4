// The variables a nunjucks template reads from its context, found by walking its parse tree:
// every name used that the template does not bind itself ({% set %}, {% for %}, macro
// arguments, imports). It documents what each built-in template receives, and checks that a
// user's override reads nothing its built-in is not given.

import nunjucks from "nunjucks";

/** One context variable a template reads, with the attributes it reads of it and where it first appears. */
export interface TemplateVariable {
  name: string;
  /** Attribute paths read below it (`loader.name` gives `name`), sorted. */
  attributes: string[];
  /** 1-based line and column of its first use. */
  line: number;
  column: number;
}

/** Names nunjucks provides inside templates, never taken from the context. */
const PROVIDED = new Set(["loop", "caller", "super", "range", "cycler", "joiner", "true", "false", "none", "True", "False", "None"]);

// The parser's nodes are untyped (nunjucks documents no AST); only what the walk reads.
interface Node {
  typename: string;
  fields: string[];
  value?: unknown;
  lineno: number;
  colno: number;
  children?: Node[];
  [field: string]: unknown;
}

/**
 * The context variables `source` reads, in order of first use.
 * @throws Error with nunjucks' message (line and column) when `source` does not parse.
 * @example templateVariables("{{ a.b }}{% for x in xs %}{{ x }}{% endfor %}") // a (b), xs
 */
export function templateVariables(source: string): TemplateVariable[] {
  const root = (nunjucks as unknown as { parser: { parse(src: string, ext: unknown[], opts: object): Node } }).parser.parse(source, [], {
    trimBlocks: true,
    lstripBlocks: true,
  });
  const bound = new Set<string>();
  collectBindings(root, bound);
  const found = new Map<string, TemplateVariable>();
  const use = (symbol: Node, attribute: string | undefined) => {
    const name = String(symbol.value);
    if (bound.has(name) || PROVIDED.has(name)) return;
    let variable = found.get(name);
    if (!variable) {
      variable = { name, attributes: [], line: symbol.lineno + 1, column: symbol.colno + 1 };
      found.set(name, variable);
    }
    if (attribute !== undefined && !variable.attributes.includes(attribute)) variable.attributes.push(attribute);
  };
  walkUses(root, use);
  for (const variable of found.values()) variable.attributes.sort();
  return [...found.values()];
}

function childNodes(node: Node, fields: readonly string[] = node.fields): Node[] {
  const out: Node[] = [];
  for (const field of fields) {
    const value = node[field];
    if (isNode(value)) out.push(value);
  }
  if (Array.isArray(node.children)) out.push(...node.children.filter(isNode));
  return out;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as Node).typename === "string";
}

/** Names the template binds anywhere: treated as bound everywhere (templates are small; scoping is not worth modelling). */
function collectBindings(node: Node, bound: Set<string>): void {
  const bindSymbols = (target: unknown) => {
    if (!isNode(target)) return;
    if (target.typename === "Symbol") bound.add(String(target.value));
    for (const child of childNodes(target)) bindSymbols(child);
  };
  switch (node.typename) {
    case "Set":
      for (const target of (node.targets as Node[]) ?? []) bindSymbols(target);
      break;
    case "For":
    case "AsyncEach":
    case "AsyncAll":
      bindSymbols(node.name);
      break;
    case "Macro":
    case "Caller":
      bindSymbols(node.name);
      for (const arg of childNodes(node.args as Node)) bindSymbols(arg.typename === "KeywordArgs" ? undefined : arg);
      for (const pair of childNodes(node.args as Node).filter((arg) => arg.typename === "KeywordArgs").flatMap((kw) => childNodes(kw))) {
        bindSymbols(pair.key);
      }
      break;
    case "Import":
      bindSymbols(node.target);
      break;
    case "FromImport":
      for (const name of childNodes(node.names as Node)) bindSymbols(name.typename === "Pair" ? name.value : name);
      break;
  }
  for (const child of childNodes(node)) collectBindings(child, bound);
}

function walkUses(node: Node, use: (symbol: Node, attribute: string | undefined) => void): void {
  switch (node.typename) {
    case "Symbol":
      use(node, undefined);
      return;
    case "LookupVal": {
      const path = lookupPath(node);
      if (path) {
        use(path.symbol, path.attributes.join("."));
        return;
      }
      break;
    }
    case "Filter":
    case "FilterAsync":
      // The filter's name is not a variable; its arguments are.
      for (const child of childNodes(node, ["args"])) walkUses(child, use);
      return;
    case "Is":
      // `x is defined`: the test's name is not a variable.
      walkUses(node.left as Node, use);
      return;
    case "Block":
      walkUses(node.body as Node, use);
      return;
    case "FromImport":
    case "Import":
      walkUses(node.template as Node, use);
      return;
    case "Macro":
    case "Caller":
      walkUses(node.body as Node, use);
      for (const kw of childNodes(node.args as Node).filter((arg) => arg.typename === "KeywordArgs")) {
        for (const pair of childNodes(kw)) walkUses(pair.value as Node, use);
      }
      return;
    case "Pair":
      // A dict literal's keys are literals or bare names (`{ key: value }`), not variables.
      walkUses(node.value as Node, use);
      return;
  }
  for (const child of childNodes(node)) walkUses(child, use);
}

/** `a.b.c` (literal lookups only) as its root symbol and the attribute path; undefined for `a[b]`. */
function lookupPath(node: Node): { symbol: Node; attributes: string[] } | undefined {
  const attributes: string[] = [];
  let current: Node = node;
  while (current.typename === "LookupVal") {
    const val = current.val as Node;
    if (val.typename !== "Literal" || typeof val.value !== "string") return undefined;
    attributes.unshift(val.value);
    current = current.target as Node;
  }
  return current.typename === "Symbol" ? { symbol: current, attributes } : undefined;
}
