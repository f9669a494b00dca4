// A cursor over the tokens of one logical line, with the checks the parsers share: keywords
// are recognized only as names that are not identifiers, operators by their exact text.

import { type Token, Unsupported } from "./tokens.js";

export const KEYWORDS = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
  "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
  "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
]);

export class TokenStream {
  pos = 0;
  constructor(readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }
  at(text: string, offset = 0): boolean {
    const token = this.tokens[this.pos + offset];
    return token !== undefined && token.text === text && (token.kind === "op" || token.kind === "name");
  }
  atName(): boolean {
    const token = this.peek();
    return token?.kind === "name" && !KEYWORDS.has(token.text);
  }
  eat(text: string): boolean {
    if (!this.at(text)) return false;
    this.pos++;
    return true;
  }
  expect(text: string): void {
    if (!this.eat(text)) throw new Unsupported(`expected ${JSON.stringify(text)} but found ${this.describe()}`);
  }
  /** Takes the own-line comments before the current token: the caller lays them out. */
  comments(): string[] | undefined {
    const token = this.tokens[this.pos];
    if (token?.comments === undefined) return undefined;
    token.commentsTaken = true;
    return token.comments;
  }
  /** Gives back the comments taken from `from` on, for a parser that backtracks there. */
  untakeComments(from: number): void {
    for (let index = from; index < this.tokens.length; index++) this.tokens[index].commentsTaken = false;
  }
  name(): string {
    if (!this.atName()) throw new Unsupported(`expected a name but found ${this.describe()}`);
    return this.tokens[this.pos++].text;
  }
  done(): boolean {
    return this.pos >= this.tokens.length;
  }
  describe(): string {
    const token = this.peek();
    return token ? JSON.stringify(token.text) : "the end of the line";
  }
}
