// Parses one logical line into a statement: a simple statement, a decorator, or the header of
// a compound statement (up to its colon, plus a `...` body on the same line for `def`/`class`).
// Anything else, including a body after the colon, throws `Unsupported`.

import type { Alias, Expr, Stmt, WithItem } from "./ast.js";
import { ExprParser } from "./parse-expr.js";
import { TokenStream } from "./stream.js";
import { type Token, Unsupported } from "./tokens.js";

const AUGMENTED = new Set(["+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**="]);

export function parseStatement(tokens: Token[]): Stmt {
  const s = new TokenStream(tokens);
  const stmt = new StmtParser(s).statement();
  if (!s.done()) throw new Unsupported(`unexpected ${s.describe()} after the statement`);
  // A comment no parser took sits where the formatter cannot lay it out: never drop it.
  for (const token of tokens) if (token.comments && !token.commentsTaken) throw new Unsupported("a comment inside a statement");
  // Ruff writes backslash continuations only in `global` and `nonlocal` statements.
  if (stmt.k !== "global" && tokens.some((token) => token.afterBackslash)) throw new Unsupported("a backslash continuation");
  return stmt;
}

class StmtParser {
  private readonly e: ExprParser;
  constructor(private readonly s: TokenStream) {
    this.e = new ExprParser(s);
  }

  statement(): Stmt {
    const s = this.s;
    const first = s.peek();
    if (!first) throw new Unsupported("an empty statement");
    if (first.kind === "name") {
      switch (first.text) {
        case "pass":
        case "break":
        case "continue":
          s.pos++;
          return { k: "keyword", word: first.text };
        case "return":
          s.pos++;
          return { k: "return", value: s.done() ? null : this.e.starExpressions() };
        case "raise":
          return this.raise();
        case "assert": {
          s.pos++;
          const test = this.e.expression();
          return { k: "assert", test, msg: s.eat(",") ? this.e.expression() : null };
        }
        case "del":
          return this.del();
        case "import":
          s.pos++;
          return { k: "import", names: this.aliases(true) };
        case "from":
          return this.importFrom();
        case "global":
        case "nonlocal":
          return this.global(first.text);
        case "def":
        case "class":
        case "if":
        case "elif":
        case "while":
        case "for":
        case "with":
        case "except":
        case "else":
        case "try":
        case "finally":
          return this.header(false);
        case "async":
          s.pos++;
          return this.header(true);
        default:
          break;
      }
    }
    if (s.eat("@")) return { k: "decorator", expr: this.e.namedExpression() };
    return this.assignmentOrExpression();
  }

  private raise(): Stmt {
    this.s.expect("raise");
    if (this.s.done()) return { k: "raise", exc: null, cause: null };
    const exc = this.e.expression();
    return { k: "raise", exc, cause: this.s.eat("from") ? this.e.expression() : null };
  }

  private del(): Stmt {
    this.s.expect("del");
    const targets = [this.e.expression()];
    let trailingComma = false;
    while (this.s.eat(",")) {
      if (this.s.done()) {
        trailingComma = true;
        break;
      }
      targets.push(this.e.expression());
    }
    return { k: "del", targets, trailingComma };
  }

  private dotted(): string {
    let name = this.s.name();
    while (this.s.eat(".")) name += `.${this.s.name()}`;
    return name;
  }

  private aliases(dotted: boolean): Alias[] {
    const names: Alias[] = [];
    do {
      if (this.s.at(")")) break;
      const name = dotted ? this.dotted() : this.s.name();
      names.push({ name, asname: this.s.eat("as") ? this.s.name() : null });
    } while (this.s.eat(","));
    return names;
  }

  private importFrom(): Stmt {
    const s = this.s;
    s.expect("from");
    let level = 0;
    for (;;) {
      if (s.eat(".")) level += 1;
      else if (s.eat("...")) level += 3;
      else break;
    }
    const module = s.at("import") ? null : this.dotted();
    s.expect("import");
    if (s.eat("*")) return { k: "importfrom", level, module, names: "*", trailingComma: false };
    const parenthesized = s.eat("(");
    const names = this.aliases(false);
    const trailingComma = s.tokens[s.pos - 1]?.text === ",";
    if (parenthesized) s.expect(")");
    else if (trailingComma) throw new Unsupported("a trailing comma in an unparenthesized import");
    return { k: "importfrom", level, module, names, trailingComma };
  }

  private global(word: "global" | "nonlocal"): Stmt {
    this.s.pos++;
    const names = [this.s.name()];
    while (this.s.eat(",")) names.push(this.s.name());
    return { k: "global", word, names };
  }

  private header(isAsync: boolean): Stmt {
    const s = this.s;
    const word = s.peek()?.text;
    if (isAsync && word !== "def" && word !== "for" && word !== "with") throw new Unsupported("`async` before a non-compound statement");
    s.pos++;
    let stmt: Stmt;
    switch (word) {
      case "def": {
        const name = s.name();
        s.expect("(");
        const params = this.e.parameters(")", true);
        s.expect(")");
        const returns = s.eat("->") ? this.e.expression() : null;
        s.expect(":");
        return { k: "def", isAsync, name, params, returns, stub: this.stubBody() };
      }
      case "class": {
        const name = s.name();
        const args = s.at("(") ? this.e.call({ k: "name", id: name, parens: 0 }) : null;
        s.expect(":");
        return { k: "class", name, args, stub: this.stubBody() };
      }
      case "if":
      case "elif":
      case "while":
        stmt = { k: "test", word, test: this.e.namedExpression() };
        break;
      case "for": {
        const target = this.e.targets();
        s.expect("in");
        stmt = { k: "for", isAsync, target, iter: this.e.starExpressions() };
        break;
      }
      case "with":
        stmt = this.with(isAsync);
        break;
      case "except": {
        const star = s.eat("*");
        const type = s.at(":") ? null : this.e.expression();
        stmt = { k: "except", star, type, name: type && s.eat("as") ? s.name() : null };
        break;
      }
      default:
        stmt = { k: "clause", word: word as "else" | "try" | "finally" };
    }
    s.expect(":");
    return stmt;
  }

  /** `def f(): ...`: whether the body is a `...` on the header's line. */
  private stubBody(): boolean {
    return this.s.eat("...");
  }

  private with(isAsync: boolean): Stmt {
    const s = this.s;
    // `with (a, b):` parenthesizes the items; `with (a).b:` or `with (a):` parenthesizes an expression.
    const start = s.pos;
    if (s.eat("(")) {
      try {
        const parsed = this.withItems(")");
        s.expect(")");
        if (s.at(":") && (parsed.items.length > 1 || parsed.trailingComma || parsed.items[0].vars)) {
          return { k: "with", isAsync, items: parsed.items, parenthesized: true, trailingComma: parsed.trailingComma };
        }
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
      }
      s.untakeComments(start);
      s.pos = start;
    }
    const parsed = this.withItems(":");
    return { k: "with", isAsync, items: parsed.items, parenthesized: false, trailingComma: parsed.trailingComma };
  }

  private withItems(close: string): { items: WithItem[]; trailingComma: boolean } {
    const items: WithItem[] = [];
    let trailingComma = false;
    for (;;) {
      const expr = this.e.expression();
      items.push({ expr, vars: this.s.eat("as") ? this.e.target() : null });
      if (!this.s.eat(",")) break;
      if (this.s.at(close)) {
        trailingComma = true;
        break;
      }
    }
    return { items, trailingComma };
  }

  private assignmentOrExpression(): Stmt {
    const s = this.s;
    const first = this.e.starExpressions();
    if (s.eat(":")) {
      const annotation = this.e.expression();
      return { k: "annassign", target: first, annotation, value: s.eat("=") ? this.e.starExpressions() : null };
    }
    const op = s.peek();
    if (op?.kind === "op" && AUGMENTED.has(op.text)) {
      s.pos++;
      return { k: "augassign", target: first, op: op.text.slice(0, -1), value: this.e.starExpressions() };
    }
    if (!s.at("=")) return { k: "expr", value: first };
    const targets: Expr[] = [first];
    let value: Expr = first;
    while (s.eat("=")) {
      value = this.e.starExpressions();
      targets.push(value);
    }
    targets.pop();
    return { k: "assign", targets, value };
  }
}
