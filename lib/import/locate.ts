/**
 * Source positions for JSON paths. `JSON.parse` forgets where values were, so
 * when validation fails we walk the (already valid) text once more, skipping
 * every value off the wanted paths: a scan, not a second parser.
 */
import type { JsonPath } from "./issues";

/** 1-based line and column of an offset. */
export interface LineColumn {
  line: number;
  column: number;
}

/** Maps offsets to lines with a binary search over line starts, built once per text. */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  at(offset: number): LineColumn {
    const starts = (this.starts ??= lineStarts(this.text));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - starts[low] + 1 };
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) starts.push(index + 1);
  return starts;
}

interface TrieNode {
  children: Map<string | number, TrieNode>;
  offset?: number;
}

/**
 * For each path, the offset where its deepest existing prefix starts (a
 * missing key resolves to its parent object), scanning valid JSON from `start`.
 */
export function locatePaths(text: string, paths: readonly JsonPath[], start = 0): number[] {
  const root: TrieNode = { children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const segment of path) {
      let child = node.children.get(segment);
      if (child === undefined) node.children.set(segment, (child = { children: new Map() }));
      node = child;
    }
  }
  walk(text, skipWhitespace(text, start), root);
  return paths.map((path) => {
    let node = root;
    let offset = root.offset ?? start;
    for (const segment of path) {
      const child = node.children.get(segment);
      if (child?.offset === undefined) break;
      node = child;
      offset = child.offset;
    }
    return offset;
  });
}

/** Records where `node`'s value starts, descends into wanted children, returns the offset after the value. */
function walk(text: string, position: number, node: TrieNode): number {
  node.offset = position;
  const opener = text[position];
  if (node.children.size === 0 || (opener !== "{" && opener !== "[")) return skipValue(text, position);
  const isObject = opener === "{";
  let cursor = skipWhitespace(text, position + 1);
  if (text[cursor] === (isObject ? "}" : "]")) return cursor + 1;
  for (let index = 0; ; index += 1) {
    let key: string | number = index;
    if (isObject) {
      const keyEnd = skipString(text, cursor);
      key = readKey(text, cursor, keyEnd);
      cursor = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    }
    const child = node.children.get(key);
    cursor = skipWhitespace(text, child === undefined ? skipValue(text, cursor) : walk(text, cursor, child));
    if (text[cursor] !== ",") return cursor + 1;
    cursor = skipWhitespace(text, cursor + 1);
  }
}

function readKey(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes("\\") ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** Offset just past the string opening at `start` (a `"`). */
export function skipString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

const structural = /["[\]{}]/g;
const scalarEnd = /[\s,\]}]/g;

function skipValue(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return skipString(text, start);
  if (first !== "{" && first !== "[") {
    scalarEnd.lastIndex = start;
    return scalarEnd.exec(text)?.index ?? text.length;
  }
  let depth = 0;
  structural.lastIndex = start;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const character = match[0];
    if (character === '"') structural.lastIndex = skipString(text, match.index);
    else if (character === "{" || character === "[") depth += 1;
    else if ((depth -= 1) === 0) return match.index + 1;
  }
  return text.length;
}

/** Offset of the first character at or after `start` that is not JSON whitespace. */
export function skipWhitespace(text: string, start: number): number {
  let position = start;
  for (;;) {
    const code = text.charCodeAt(position);
    if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return position;
    position += 1;
  }
}
