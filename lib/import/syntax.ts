/**
 * Our own JSON syntax error locator. Engines word `JSON.parse` errors
 * differently (V8 gives an offset, Firefox a line and column, Safari nothing),
 * so on failure we re-scan the text and say precisely what and where. The
 * scan is iterative: nesting as deep as `JSON.parse` accepts cannot overflow it.
 */
import { LineIndex, skipWhitespace } from "./locate";

/** Where parsing stopped and why. */
export interface SyntaxProblem {
  offset: number;
  message: string;
}

type Expect = "value" | "first-value" | "value-after-comma" | "key" | "first-key" | "colon" | "after-value";

const escapes = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const hexDigit = /^[0-9a-fA-F]$/;

type Where = (offset: number) => string;

/** The first syntax error in `text[start, end)`, or undefined when it holds exactly one JSON value. */
export function findSyntaxError(text: string, start = 0, end = text.length): SyntaxProblem | undefined {
  const scanner = new SyntaxScanner(text, end);
  let position = start;
  for (;;) {
    position = Math.min(skipWhitespace(text, position), end);
    if (position >= end) return scanner.atEnd();
    const next = scanner.step(position);
    if (typeof next !== "number") return next;
    position = next;
  }
}

/** A state machine over tokens: what may come next, and the open containers. */
class SyntaxScanner {
  private readonly stack: { kind: "{" | "["; offset: number }[] = [];
  private expect: Expect = "value";
  private lines: LineIndex | undefined;
  readonly where: Where = (offset) => {
    const { line, column } = (this.lines ??= new LineIndex(this.text)).at(offset);
    return `line ${line}, column ${column}`;
  };

  constructor(
    private readonly text: string,
    private readonly end: number,
  ) {}

  atEnd(): SyntaxProblem | undefined {
    if (this.expect === "after-value" && this.stack.length === 0) return undefined;
    const open = this.stack.at(-1);
    if (open === undefined) return { offset: this.end, message: "unexpected end of input: expected a JSON value" };
    const name = open.kind === "{" ? "object" : "array";
    return { offset: this.end, message: `unexpected end of input: the ${name} opened at ${this.where(open.offset)} is not closed` };
  }

  /** Consumes the token at `position`; returns where the next one may start, or the problem. */
  step(position: number): number | SyntaxProblem {
    if (this.expect === "after-value") return this.afterValue(position);
    if (this.expect === "colon") {
      if (this.text[position] !== ":") return { offset: position, message: "expected ':' after a property name" };
      this.expect = "value";
      return position + 1;
    }
    if (this.expect === "key" || this.expect === "first-key") return this.key(position);
    return this.value(position);
  }

  private afterValue(position: number): number | SyntaxProblem {
    const character = this.text[position];
    const top = this.stack.at(-1);
    if (top === undefined) {
      return { offset: position, message: "unexpected content after the JSON value (JSONL needs one JSON value on each line)" };
    }
    const close = top.kind === "{" ? "}" : "]";
    if (character === ",") this.expect = top.kind === "{" ? "key" : "value-after-comma";
    else if (character === close) this.stack.pop();
    else {
      const after = top.kind === "{" ? "a property value" : "an array element";
      const zero = /[0-9]/.test(character) && this.text[position - 1] === "0" ? " (numbers cannot have leading zeros)" : "";
      return { offset: position, message: `expected ',' or '${close}' after ${after}${zero}` };
    }
    return position + 1;
  }

  private key(position: number): number | SyntaxProblem {
    const character = this.text[position];
    if (character === "}" && this.expect === "first-key") return this.close(position);
    if (character !== '"') return { offset: position, message: keyProblem(character, this.expect === "key") };
    this.expect = "colon";
    return scanString(this.text, position, this.end, this.where);
  }

  private value(position: number): number | SyntaxProblem {
    const character = this.text[position];
    if (character === "]" && this.expect === "first-value") return this.close(position);
    if (character === "{" || character === "[") {
      this.stack.push({ kind: character, offset: position });
      this.expect = character === "{" ? "first-key" : "first-value";
      return position + 1;
    }
    if ((character === "]" || character === "}") && this.expect === "value-after-comma") {
      return { offset: position, message: "expected a value after ',' (trailing commas are not allowed)" };
    }
    this.expect = "after-value";
    return scanScalar(this.text, position, this.end, this.where);
  }

  private close(position: number): number {
    this.stack.pop();
    this.expect = "after-value";
    return position + 1;
  }
}

function keyProblem(character: string, afterComma: boolean): string {
  if (character === "}" && afterComma) return "expected a property name after ',' (trailing commas are not allowed)";
  if (character === "'") return "property names must use double quotes, not single quotes";
  if (/[A-Za-z_$]/.test(character)) return "property names must be double-quoted strings";
  return `expected a property name in double quotes, found '${character}'`;
}

function scanScalar(text: string, start: number, end: number, where: Where): number | SyntaxProblem {
  const character = text[start];
  if (character === '"') return scanString(text, start, end, where);
  if (character === "-" || (character >= "0" && character <= "9")) return scanNumber(text, start, end);
  for (const literal of ["true", "false", "null"]) {
    if (literal[0] !== character) continue;
    for (let index = 1; index < literal.length; index += 1) {
      if (start + index >= end || text[start + index] !== literal[index]) {
        return { offset: Math.min(start + index, end), message: `invalid literal: expected '${literal}'` };
      }
    }
    return start + literal.length;
  }
  if (character === "'") return { offset: start, message: "strings must use double quotes, not single quotes" };
  if (character === "/") return { offset: start, message: "comments are not allowed in JSON" };
  return { offset: start, message: `unexpected character '${character}': expected a JSON value` };
}

function scanString(text: string, start: number, end: number, where: Where): number | SyntaxProblem {
  for (let position = start + 1; position < end; position += 1) {
    const code = text.charCodeAt(position);
    if (code === 34) return position + 1;
    if (code === 92) {
      const escaped = text[position + 1];
      if (escaped === "u") {
        for (let digit = 2; digit < 6; digit += 1) {
          if (!hexDigit.test(text[position + digit] ?? "")) {
            return { offset: position + digit, message: "invalid \\u escape: expected 4 hexadecimal digits" };
          }
        }
        position += 5;
      } else if (escapes.has(escaped)) position += 1;
      else return { offset: position + 1, message: `invalid escape '\\${escaped ?? ""}' in a string` };
    } else if (code < 32) {
      const what = code === 10 || code === 13 ? "line break" : "control character";
      return { offset: position, message: `unescaped ${what} in a string (write it as an escape, or close the string)` };
    }
  }
  return { offset: end, message: `unexpected end of input: the string opened at ${where(start)} is not closed` };
}

function scanNumber(text: string, start: number, end: number): number | SyntaxProblem {
  let position = start;
  const digits = () => {
    const from = position;
    while (position < end && text[position] >= "0" && text[position] <= "9") position += 1;
    return position > from;
  };
  if (text[position] === "-") position += 1;
  if (text[position] === "0") position += 1;
  else if (!digits()) return { offset: position, message: "expected a digit after '-'" };
  if (text[position] === ".") {
    position += 1;
    if (!digits()) return { offset: position, message: "expected a digit after the decimal point" };
  }
  if (text[position] === "e" || text[position] === "E") {
    position += 1;
    if (text[position] === "+" || text[position] === "-") position += 1;
    if (!digits()) return { offset: position, message: "expected a digit in the exponent" };
  }
  return position;
}

const enginePosition = /position (\d+)/;
const engineLineColumn = /line (\d+) column (\d+)/;

/**
 * The offset an engine's `JSON.parse` message reports, if any (V8: "at
 * position 42", newer V8 and Firefox: "line 3 column 5"). Only a fallback for
 * when our own scan disagrees with the engine.
 */
export function offsetFromEngineMessage(text: string, message: string, start = 0): number | undefined {
  const lineColumn = engineLineColumn.exec(message);
  if (lineColumn !== null) {
    let offset = start;
    for (let line = 1; line < Number(lineColumn[1]); line += 1) {
      const newline = text.indexOf("\n", offset);
      if (newline === -1) return undefined;
      offset = newline + 1;
    }
    return offset + Number(lineColumn[2]) - 1;
  }
  const position = enginePosition.exec(message);
  return position === null ? undefined : start + Number(position[1]);
}
