import fc from "fast-check";
import { bodyText, deeplyNested, HUGE_NUMBERS, LONE_SURROGATES, mutatedJson, mutateText, nasty, textMutation, type TextMutation } from "./bodies";

/**
 * Bodies for `POST /api/sessions` (SE-5): session files of JSON lines exported
 * from the fixtures, each copy's rows given new ids so it imports (the file
 * as exported is a 409, SE-3), then broken a line at a time: lines dropped,
 * doubled, swapped or cut short, a line's text mutated a character or two, a
 * value in a line replaced by one of the wrong type, a number no column
 * holds, nesting past the limit, a lone surrogate or U+0000; the same rows
 * as a file of version 1 (one JSON object), whole and mutated.
 */

type Line = { [key: string]: unknown };

// Even over [0, 1): fast-check's doubles fall mostly near 0, which would pick the first line and the first field.
const fraction = fc.noBias(fc.integer({ min: 0, max: 2 ** 30 - 1 })).map((n) => n / 2 ** 30);

/** Where `fraction` falls among `length` items. */
function indexAt(where: number, length: number): number {
  return Math.min(length - 1, Math.floor(where * length));
}

/** Every id the rows of a file hold: a copy renames each wherever the text names it (checkpoint values and message metadata name them too). */
function rowIds(lines: readonly Line[]): string[] {
  return lines.flatMap((line) => {
    const row = line.row as Line | undefined;
    return typeof row?.id === "string" ? [row.id] : [];
  });
}

/** The lines of a copy of `file` whose rows are new rows: each id and the conversation's record and session keys end in `suffix`. */
function freshCopy(file: string, suffix: string): string[] {
  const lines = file.split("\n").filter((text) => text !== "");
  const ids = new RegExp(rowIds(lines.map((text) => JSON.parse(text) as Line)).join("|"), "g");
  return lines.map((text) => {
    const line = JSON.parse(text.replace(ids, (id) => `${id}${suffix}`)) as Line;
    if (line.table !== "conversation") return JSON.stringify(line);
    const row = line.row as Line;
    // SE-3: a stored record key refuses the copy as the stored id would.
    for (const key of ["recordKey", "sessionKey"]) if (typeof row[key] === "string") row[key] = `${row[key]}${suffix}`;
    return JSON.stringify(line);
  });
}

/** The same rows as a file of version 1: one object, requests whole (a file whose requests are deltas or left out is refused). */
function asVersion1(lines: readonly string[]): string {
  const [header, ...rows] = lines.map((text) => JSON.parse(text) as Line);
  const file: Line = { kind: header.kind, version: 1, exportedAt: header.exportedAt };
  for (const line of rows) {
    if (line.table === "conversation") file.conversation = line.row;
    else if (line.table !== "end") {
      const { requestBaseId: _request, sentBaseId: _sent, ...row } = line.row as Line;
      file[line.table as string] = [...((file[line.table as string] as unknown[]) ?? []), line.table === "exchanges" ? row : line.row];
    }
  }
  for (const table of ["branches", "messages", "summaries", "checkpoints", "offloaded", "artifacts", "exchanges", "policies"]) file[table] ??= [];
  return JSON.stringify(file);
}

/** Raw JSON text for a value in a line: of the wrong type, out of range, nested too deep, text no database stores, or a plausible value. */
const valueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: nasty.map((value) => JSON.stringify(value) ?? "null") },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE_NUMBERS.map(String), "1e999", "-1e999", "99999999999999999999", "2147483648", "-2147483649", "-0") },
  { weight: 1, arbitrary: fc.constantFrom(99, 101, 5_000).map(deeplyNested) },
  // A JSON column (settings, metadata, values) holding JSON text nested at, past and far past the limit (SE-4).
  { weight: 1, arbitrary: fc.constantFrom(99, 101, 5_000).map((depth) => JSON.stringify(deeplyNested(depth))) },
  { weight: 2, arbitrary: fc.constantFrom(...LONE_SURROGATES, "\u0000", "a\u0000b", "\u202Egnp.exe", "\uFEFF", "😀").map((text) => JSON.stringify(text)) },
  { weight: 1, arbitrary: fc.constantFrom('"{}"', '"[]"', '"null"', '"not json"', '"{\\"a\\":"', '""') },
  // Dates at the ends of what both databases store, just past them (year 0, which PostgreSQL cannot store, also reached through an offset), and none.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '"0001-01-01T00:00:00Z"',
      '"9999-12-31T23:59:59.999Z"',
      '"1970-01-01T00:00:00Z"',
      '"0000-01-01T00:00:00Z"',
      '"0001-01-01T00:00:00+01:00"',
      '"2026-13-45T25:61:00Z"',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }), fc.nat(1_000)).map((value) => JSON.stringify(value)),
  },
);

type LineMutation =
  | { kind: "drop"; at: number }
  | { kind: "duplicate"; at: number }
  | { kind: "swap"; at: number; to: number }
  | { kind: "characters"; at: number; mutation: TextMutation }
  | { kind: "value"; at: number; field: number; value: string };

const lineMutation: fc.Arbitrary<LineMutation> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop" as const), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("duplicate" as const), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("swap" as const), at: fraction, to: fraction }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("characters" as const), at: fraction, mutation: textMutation(fraction) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("value" as const), at: fraction, field: fraction, value: valueText }) },
);

/** Stands for the new value while its line is stringified, then gives way to the raw text (which may be no JSON value at all). */
const PLACEHOLDER = "\u0001fuzzed value\u0001";

/** A line with one field (of its row, of the end line's counts, or of the header) set to `value`, or an unknown field added. */
function withValue(text: string, field: number, value: string): string {
  let line: Line;
  try {
    line = JSON.parse(text) as Line;
  } catch {
    return text;
  }
  const inner = line.row ?? line.rows ?? line;
  const target = typeof inner === "object" && inner !== null ? (inner as Line) : line;
  const keys = [...Object.keys(target), "unknownField"];
  target[keys[indexAt(field, keys.length)]] = PLACEHOLDER;
  return JSON.stringify(line).replace(JSON.stringify(PLACEHOLDER), () => value);
}

function mutateLines(lines: readonly string[], mutation: LineMutation): string[] {
  const at = indexAt(mutation.at, lines.length);
  const next = [...lines];
  if (mutation.kind === "drop") next.splice(at, 1);
  else if (mutation.kind === "duplicate") next.splice(at, 0, lines[at]);
  else if (mutation.kind === "swap") {
    const to = indexAt(mutation.to, lines.length);
    [next[at], next[to]] = [lines[to], lines[at]];
  } else if (mutation.kind === "characters") next[at] = mutateText(lines[at], mutation.mutation);
  else next[at] = withValue(lines[at], mutation.field, mutation.value);
  return next;
}

/** How the lines are put together: as exported, or with CRLF ends, blank lines, no last newline, a byte order mark, or a line after the end. */
const LAYOUTS: Record<string, (lines: readonly string[]) => string> = {
  exported: (lines) => `${lines.join("\n")}\n`,
  crlf: (lines) => `${lines.join("\r\n")}\r\n`,
  blankLines: (lines) => `\n${lines.join("\n\n")}\n\n`,
  unterminated: (lines) => lines.join("\n"),
  byteOrderMark: (lines) => `\uFEFF${lines.join("\n")}\n`,
  afterEnd: (lines) => `${lines.join("\n")}\n${lines[1]}\n`,
};

/**
 * `POST /api/sessions` bodies from the exported `files`: fresh copies that
 * import (201), mutated copies (a few of which still import), the files as
 * exported (409) and bodies that are no session file at all (400).
 */
export function sessionFileBodies(files: readonly string[]): fc.Arbitrary<string> {
  // Unbiased, so copies drawn in one run do not share ids (which would be a 409, not an import).
  const suffix = fc.noBias(fc.integer({ min: 0, max: 2 ** 48 })).map((n) => `x${n.toString(36)}`);
  const copies = fc.tuple(fc.constantFrom(...files), suffix).map(([file, end]) => freshCopy(file, end));
  return fc.oneof(
    { weight: 5, arbitrary: copies.map(LAYOUTS.exported) },
    { weight: 1, arbitrary: copies.map(asVersion1) },
    {
      weight: 8,
      arbitrary: fc
        .tuple(copies, fc.array(lineMutation, { minLength: 1, maxLength: 3 }))
        .map(([lines, mutations]) => LAYOUTS.exported(mutations.reduce(mutateLines, lines))),
    },
    { weight: 2, arbitrary: fc.tuple(copies, fc.constantFrom(...Object.values(LAYOUTS))).map(([lines, layout]) => layout(lines)) },
    { weight: 1, arbitrary: mutatedJson(copies.map(asVersion1)) },
    { weight: 1, arbitrary: fc.constantFrom(...files) },
    { weight: 1, arbitrary: bodyText({}) },
  );
}
