import fc from "fast-check";

/**
 * Random request bodies for the fuzz suite (BD-11): text that is not JSON,
 * JSON of every type, bodies shaped like a route's schema with wrong or
 * extreme values, valid bodies mutated character by character, lone
 * surrogates, U+0000, integers past what an `Int` column holds, nesting
 * past the limit (tool arguments included), giant strings within the body
 * limit and unknown fields; hostile query values.
 */

export const LONE_SURROGATES = ["\ud83d", "\udc00", "a\ud800b", "\udfff\ud800"];
export const HUGE_NUMBERS = [1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 1e-320, -0, 0.5, -1, 4294967296, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 1e21];

/** A value that is wrong, extreme or hostile wherever it is put. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...LONE_SURROGATES),
  fc.constantFrom(...HUGE_NUMBERS),
  fc.constantFrom(null, true, false, "", " ", "\u0000", "a\u0000b", "\u202Egnp.exe", "<|endoftext|>", "__proto__", "constructor"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 2 }), { maxKeys: 4 }),
);

/**
 * Giant strings within the body limit. Runs with no whitespace (the
 * tokenizer's worst case) are kept to 8 K characters until the linear BPE
 * merge lands; text with spaces, emoji and CJK runs goes to 200 K.
 */
const giant: fc.Arbitrary<string> = fc.constantFrom(
  "A".repeat(8_000),
  "=".repeat(8_000),
  "ACGT".repeat(2_000),
  "x ".repeat(100_000),
  "😀 ".repeat(50_000),
  "文字 ".repeat(50_000),
);

/** JSON text nesting arrays and objects `depth` deep, built as text: stringifying it would need as deep a stack. */
export function deeplyNested(depth: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 0; level < depth; level += 1) {
    open.push(level % 2 === 0 ? "[" : '{"nested":');
    close.push(level % 2 === 0 ? "]" : "}");
  }
  return `${open.join("")}"bottom"${close.reverse().join("")}`;
}

/** A create or append body whose one tool call's arguments (JSON in a string) nest `depth` deep. */
function deepToolArguments(depth: number): string {
  const argumentsText = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const call = { id: "call_deep", type: "function", function: { name: "lookup", arguments: argumentsText } };
  return JSON.stringify({
    title: "deep",
    messages: [
      { role: "user", content: "q" },
      { role: "assistant", content: null, tool_calls: [call] },
    ],
  });
}

const message: fc.Arbitrary<unknown> = fc.record(
  {
    role: fc.oneof(fc.constantFrom("system", "user", "assistant", "tool", "developer", "function"), nasty),
    content: fc.oneof(fc.string({ maxLength: 200 }), nasty, fc.constant(null)),
    tool_calls: fc.oneof(
      nasty,
      fc.array(
        fc.record({
          id: fc.oneof(fc.string({ maxLength: 6 }), nasty),
          type: fc.oneof(fc.constant("function"), nasty),
          function: fc.oneof(
            nasty,
            fc.record({ name: fc.oneof(fc.string({ maxLength: 10 }), nasty), arguments: fc.oneof(fc.string({ maxLength: 30 }), nasty) }),
          ),
        }),
        { maxLength: 3 },
      ),
    ),
    tool_call_id: fc.oneof(fc.string({ maxLength: 6 }), nasty),
    name: nasty,
  },
  { requiredKeys: [] },
);

/** A body shaped like `fields` (a route's schema), each value right, wrong or extreme, plus unknown fields now and then. */
function shaped(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const withNasty = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, fc.oneof(value, nasty)]));
  return fc
    .tuple(fc.record(withNasty, { requiredKeys: [] }), fc.option(fc.dictionary(fc.string({ maxLength: 10 }), nasty, { maxKeys: 2 })))
    .map(([body, extra]) => ({ ...body, ...extra }));
}

export const SETTINGS_FIELDS: Record<string, fc.Arbitrary<unknown>> = {
  mode: fc.constantFrom("copilot", "navigator", "autopilot", "bogus"),
  historyRounds: fc.integer({ min: -5, max: 1_000_000 }),
  summaryThreshold: fc.oneof(fc.integer(), fc.constant(null)),
  offloadThreshold: fc.oneof(fc.integer(), fc.constant(null)),
  maxMessageSize: fc.integer(),
  tokenBudget: fc.integer(),
  contextWindow: fc.integer(),
  model: fc.string({ maxLength: 30 }),
  encoding: fc.constantFrom("o200k_base", "cl100k_base", null, "nope"),
  applyPipeline: fc.boolean(),
};

/** Field shapes of each route's body. */
export const ROUTE_FIELDS: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
  createConversation: { title: fc.string({ maxLength: 80 }), messages: fc.array(message, { maxLength: 4 }), tools: nasty, settings: shaped(SETTINGS_FIELDS) },
  updateConversation: { title: fc.string({ maxLength: 80 }), settings: shaped(SETTINGS_FIELDS), tools: nasty },
  appendMessages: {
    messages: fc.array(message, { maxLength: 4 }),
    expectedLength: fc.oneof(fc.integer({ min: -2, max: 50 }), nasty),
    metadata: fc.array(nasty, { maxLength: 4 }),
  },
  fork: { position: fc.oneof(fc.integer({ min: -3, max: 100 }), nasty), name: fc.string({ maxLength: 40 }) },
  compact: { force: fc.boolean(), settings: shaped(SETTINGS_FIELDS) },
  prompt: { userTurn: fc.oneof(fc.string({ maxLength: 100 }), message), settings: shaped(SETTINGS_FIELDS), compact: fc.boolean() },
  chat: { userTurn: fc.string({ maxLength: 100 }), toolResults: nasty, stream: fc.boolean() },
  proxyChat: {
    model: fc.constantFrom("gpt-4o", "", "x"),
    messages: fc.array(message, { maxLength: 4 }),
    stream: fc.boolean(),
    tools: nasty,
    max_tokens: fc.integer(),
  },
  proxyMessages: {
    model: fc.constantFrom("claude-sonnet-4-5", ""),
    max_tokens: fc.oneof(fc.integer(), fc.constantFrom(2 ** 31, 1e300)),
    messages: fc.array(fc.record({ role: fc.constantFrom("user", "assistant", "x"), content: fc.oneof(fc.string({ maxLength: 60 }), nasty) }), {
      maxLength: 3,
    }),
    system: nasty,
    stream: fc.boolean(),
  },
  proxyResponses: { model: fc.constantFrom("gpt-4o", ""), input: fc.oneof(fc.string({ maxLength: 60 }), nasty), instructions: nasty, stream: fc.boolean() },
  upstream: {
    baseUrl: fc.oneof(fc.webUrl(), fc.string({ maxLength: 30 })),
    apiKey: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null)),
    timeoutMs: fc.integer(),
  },
  login: { token: fc.string({ maxLength: 60 }) },
};

/** Messages a route must accept: any text (emoji, bidi controls, CJK, control characters) in a valid shape. */
const validText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 100 }),
  fc.string({ unit: "binary", maxLength: 100 }).filter((text) => !/[\uD800-\uDFFF]/.test(text)),
);
export const validMessages: fc.Arbitrary<unknown[]> = fc.array(
  fc.oneof(fc.record({ role: fc.constant("user"), content: validText }), fc.record({ role: fc.constant("assistant"), content: validText })),
  { minLength: 1, maxLength: 5 },
);

/** Bodies each route accepts, so the fuzz run writes as well as refuses. */
export const VALID_BODIES: Record<string, fc.Arbitrary<unknown>> = {
  createConversation: fc.record({ title: validText.filter((text) => text.trim() !== ""), messages: validMessages }),
  appendMessages: fc.record({ messages: validMessages }),
  fork: fc.record({ position: fc.integer({ min: 0, max: 3 }), name: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== "") }),
  chat: fc.record({ userTurn: validText.filter((text) => text.trim() !== ""), stream: fc.boolean() }),
  proxyChat: fc.record({ model: fc.constant("gpt-4o"), messages: validMessages, stream: fc.boolean() }),
  proxyResponses: fc.record({ model: fc.constant("gpt-4o"), input: validText.filter((text) => text.trim() !== ""), stream: fc.boolean() }),
  proxyMessages: fc.record({
    model: fc.constant("claude-sonnet-4-5"),
    max_tokens: fc.integer({ min: 1, max: 1_000 }),
    messages: fc.array(fc.record({ role: fc.constant("user"), content: validText.filter((text) => text.trim() !== "") }), { minLength: 1, maxLength: 1 }),
    stream: fc.boolean(),
  }),
};

const MUTATIONS = ["{", "}", "[", "]", '"', ",", ":", "\\", "\\u0000", "\\ud800", "1e999", "2147483648", "99999999999999999999", "null", " ", "\u0000"];

/** One change to a text: what, where (a fraction of its length) and the token it puts in. */
export type TextMutation = [kind: "delete" | "insert" | "number" | "cut", where: number, token: string];

/** A mutation at a place `where` draws (fast-check's doubles fall mostly near 0 and 1: the ends of the text). */
export function textMutation(where: fc.Arbitrary<number> = fc.double({ min: 0, max: 1, noNaN: true })): fc.Arbitrary<TextMutation> {
  return fc.tuple(fc.constantFrom("delete", "insert", "number", "cut"), where, fc.constantFrom(...MUTATIONS));
}

/** A slice deleted, a token inserted, a number swapped for one no column holds, or the end cut off. */
export function mutateText(text: string, [kind, where, token]: TextMutation): string {
  const at = Math.floor(where * text.length);
  if (kind === "delete") return text.slice(0, at) + text.slice(at + 1 + (at % 7));
  if (kind === "insert") return text.slice(0, at) + token + text.slice(at);
  if (kind === "number") return text.replace(/\d+/, token === "1e999" || token === "99999999999999999999" ? token : "2147483648");
  return text.slice(0, at);
}

/** A text mutated once or twice where it stands (`mutateText`). */
export function mutatedJson(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(base, fc.array(textMutation(), { minLength: 1, maxLength: 2 })).map(([text, mutations]) => mutations.reduce(mutateText, text));
}

const RAW_QUERY_VALUES = [
  "",
  "0",
  "1",
  "-1",
  "2147483647",
  "2147483648",
  "9007199254740993",
  "1e999",
  "NaN",
  "Infinity",
  "0x10",
  "1.5",
  "true",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%",
  "%zz",
  "%FF",
  "%0A",
  "+",
  "%E2%80%AEgnp.exe",
];

/** A query value as it appears in the URL (escaped): one of the real ones, a number no column holds, an escape that hides U+0000, random text. */
export function queryValue(real: readonly string[], options: { long?: boolean } = {}): fc.Arbitrary<string> {
  return fc.oneof(
    ...(real.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...real).map(encodeURIComponent) }] : []),
    { weight: 3, arbitrary: fc.constantFrom(...RAW_QUERY_VALUES) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }).map(encodeURIComponent) },
    ...(options.long === false ? [] : [{ weight: 1, arbitrary: fc.constantFrom("x".repeat(10_000), encodeURIComponent("文".repeat(3_000))) }]),
  );
}

/** One body: the text sent, whatever it holds; `validWeight` of about 20 are valid (fewer where each one calls the upstream). */
export function bodyText(fields: Record<string, fc.Arbitrary<unknown>>, valid?: fc.Arbitrary<unknown>, validWeight = 4): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: valid ? validWeight : 0, arbitrary: (valid ?? fc.constant({})).map((value) => JSON.stringify(value)) },
    { weight: 6, arbitrary: shaped(fields).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.string({ maxLength: 120 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "{", "[1,", '{"a":}', "null", "1e999", '"\\ud83d"', "\u0000", '{"title":"x",}') },
    { weight: 1, arbitrary: fc.integer({ min: 90, max: 5_000 }).map((depth) => `{"title":"deep","metadata":${deeplyNested(depth)}}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("[".repeat(20_000), `${"[".repeat(20_000)}${"]".repeat(20_000)}`, deepToolArguments(5_000), deepToolArguments(101)),
    },
    { weight: 2, arbitrary: mutatedJson((valid ?? shaped(fields)).map((value) => JSON.stringify(value))) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(shaped(fields), fc.constantFrom(...LONE_SURROGATES))
        .map(([value, lone]) => JSON.stringify({ ...(value as object), title: `t${lone}`, content: lone })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(giant, fc.constantFrom("title", "content", "model", "name"))
        .map(([text, key]) => JSON.stringify({ [key]: text, messages: [{ role: "user", content: text }] })),
    },
  );
}

/** Import bodies: pasted transcripts, whole or broken in every way. */
export const importText: fc.Arbitrary<string> = fc.oneof(
  validMessages.map((messages) => JSON.stringify({ messages })),
  validMessages.map((messages) => messages.map((entry) => JSON.stringify(entry)).join("\n")),
  mutatedJson(validMessages.map((messages) => JSON.stringify({ messages }))),
  bodyText(ROUTE_FIELDS.createConversation),
  fc.array(message, { maxLength: 5 }).map((messages) => JSON.stringify(messages)),
  fc.array(message, { maxLength: 5 }).map((messages) => messages.map((entry) => JSON.stringify(entry)).join("\n")),
  fc.array(fc.record({ traj: fc.array(message, { maxLength: 4 }) }), { maxLength: 3 }).map((value) => JSON.stringify(value)),
  fc.record({ messages: fc.array(message, { maxLength: 4 }), model: nasty }).map((value) => JSON.stringify(value)),
);
