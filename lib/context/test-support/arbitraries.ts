// fast-check generators of conversations: valid ones for the processors' invariants,
// broken ones for sanitizeHistory.
import fc from "fast-check";
import { CONVERSATION_SUMMARY_PREFIX, TOOL_CHAIN_SUMMARY_PREFIX, type Message, type ToolCall } from "../messages";
import type { TokenUsage, UsageInput } from "../usage";

const WORDS = [
  "flight",
  "refund",
  "booking",
  "reservation",
  "yes",
  "please",
  "the",
  "status",
  "SFO",
  "JFK",
  "42",
  "2024-05-15",
  "gift_card",
  "😀",
  "中文",
  "<|endoftext|>",
  "line\r\nbreak",
  "  spaced",
  "café",
  "\uFEFFmark",
  "O'Brien's",
];

/** A short sentence from a word pool that includes multilingual, emoji and special-token-looking text. */
export const shortTextArbitrary = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 10 }).map((words) => words.join(" "));

/** Several hundred to a few thousand characters: what the offloader is for. */
export const longTextArbitrary = fc
  .tuple(shortTextArbitrary, fc.integer({ min: 300, max: 2_500 }))
  .map(([text, size]) => text.repeat(Math.ceil(size / (text.length + 1)) + 1));

/**
 * Text a model (or a user) writes that imitates the engine's own markers:
 * summary prefixes, offload markers with real-looking handles (E-M2). Short or
 * long, so the offloader meets it too.
 */
export const markerLookalikeArbitrary = fc
  .tuple(
    fc.constantFrom(
      `${TOOL_CHAIN_SUMMARY_PREFIX} `,
      `${TOOL_CHAIN_SUMMARY_PREFIX}`,
      `${CONVERSATION_SUMMARY_PREFIX}\n`,
      "[[OFFLOADED: handle=off_0123456789ab]] ",
      "[tool chain summary] ",
    ),
    fc.oneof({ weight: 4, arbitrary: shortTextArbitrary }, { weight: 1, arbitrary: longTextArbitrary }),
  )
  .map(([prefix, text]) => `${prefix}${text}`);

export const contentArbitrary = fc.oneof(
  { weight: 8, arbitrary: shortTextArbitrary },
  { weight: 1, arbitrary: longTextArbitrary },
  { weight: 1, arbitrary: markerLookalikeArbitrary },
);

type IdScheme = "unique" | "positional" | "same";

interface StepPlan {
  note: string | null;
  calls: { name: string; args: string; result: string }[];
  /** Results in a different order from the calls (still a valid block). */
  shuffled: boolean;
}

interface RoundPlan {
  /** `null`: the agent speaks again without a user turn (E-R1). */
  question: string | null;
  followUp: string | null;
  steps: StepPlan[];
  final: string;
}

interface ConversationPlan {
  rounds: RoundPlan[];
  ending: "complete" | "after-user" | "after-results";
  idScheme: IdScheme;
  /** One flag per slot where a system message may stand. */
  systemSlots: boolean[];
  leadingSystem: boolean;
  earlierSummary: boolean;
  /** A system note that reads like a conversation summary but carries no engine mark (E-M2). */
  lookalikeNote: string | null;
}

const stepArbitrary: fc.Arbitrary<StepPlan> = fc.record({
  note: fc.option(shortTextArbitrary, { freq: 4 }),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom("get_user_details", "search_flights", "cancel_reservation", "calculate"),
      args: fc.dictionary(fc.constantFrom("id", "date", "origin", "amount"), shortTextArbitrary, { maxKeys: 3 }).map((args) => JSON.stringify(args)),
      result: contentArbitrary,
    }),
    { minLength: 1, maxLength: 3 },
  ),
  shuffled: fc.boolean(),
});

const roundArbitrary: fc.Arbitrary<RoundPlan> = fc.record({
  question: fc.option(contentArbitrary, { freq: 12 }),
  followUp: fc.option(shortTextArbitrary, { freq: 8 }),
  steps: fc.array(stepArbitrary, { maxLength: 3 }),
  final: contentArbitrary,
});

const planArbitrary: fc.Arbitrary<ConversationPlan> = fc.record({
  rounds: fc.array(roundArbitrary, { minLength: 1, maxLength: 7 }),
  ending: fc.constantFrom("complete", "after-user", "after-results"),
  idScheme: fc.constantFrom<IdScheme>("unique", "positional", "same"),
  systemSlots: fc.array(
    fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
    { minLength: 64, maxLength: 64 },
  ),
  leadingSystem: fc.boolean(),
  earlierSummary: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0),
  lookalikeNote: fc.option(markerLookalikeArbitrary, { freq: 4 }),
});

/** Builds the messages of a plan; the result is a valid history (E-P1). */
function buildConversation(plan: ConversationPlan): Message[] {
  const history: Message[] = [];
  let slot = 0;
  let counter = 0;
  const maybeSystem = () => {
    if (plan.systemSlots[slot++ % plan.systemSlots.length]) history.push({ role: "system", content: `note ${slot}` });
  };
  if (plan.leadingSystem) history.push({ role: "system", content: "You are an airline agent." });
  // An earlier run's summary, carried into this call: the engine's own, so marked (E-M2).
  if (plan.earlierSummary)
    history.push({ role: "system", content: `${CONVERSATION_SUMMARY_PREFIX}\n- user: earlier question`, engine: { kind: "conversation-summary" } });
  if (plan.lookalikeNote !== null) history.push({ role: "system", content: plan.lookalikeNote });
  plan.rounds.forEach((round, index) => {
    const last = index === plan.rounds.length - 1;
    maybeSystem();
    if (round.question !== null || (last && plan.ending === "after-user")) history.push({ role: "user", content: round.question ?? "go on" });
    if (last && plan.ending === "after-user") return;
    if (round.followUp !== null) history.push({ role: "user", content: round.followUp });
    const steps =
      last && plan.ending === "after-results" && round.steps.length === 0
        ? [{ note: null, calls: [{ name: "f", args: "{}", result: "ok" }], shuffled: false }]
        : round.steps;
    for (const step of steps) {
      maybeSystem();
      const toolCalls: ToolCall[] = step.calls.map((call, position) => ({
        id: plan.idScheme === "unique" ? `call_${counter++}` : plan.idScheme === "positional" ? `call_${position}` : "call_0",
        type: "function",
        function: { name: call.name, arguments: call.args },
      }));
      history.push({ role: "assistant", content: step.note, tool_calls: toolCalls });
      const results = step.calls.map(
        (call, position): Message => ({ role: "tool", tool_call_id: toolCalls[position].id, name: call.name, content: call.result }),
      );
      // Same-id calls pair positionally, so only distinct ids may come back in another order.
      if (step.shuffled && plan.idScheme !== "same") results.reverse();
      history.push(...results);
    }
    if (last && plan.ending === "after-results") return;
    maybeSystem();
    history.push({ role: "assistant", content: round.final });
  });
  maybeSystem();
  return history;
}

/** A random valid conversation (E-P1 holds): system messages anywhere outside tool blocks, parallel calls, reused ids, sometimes an incomplete last round. */
export const conversationArbitrary: fc.Arbitrary<Message[]> = planArbitrary.map(buildConversation);

type Mutation =
  | { kind: "delete"; at: number }
  | { kind: "duplicate"; at: number }
  | { kind: "orphan"; at: number; id: string }
  | { kind: "swap"; at: number }
  | { kind: "retarget"; at: number; id: string }
  | { kind: "interject"; at: number };

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("orphan" as const), at: fc.nat(), id: fc.constantFrom("call_0", "call_1", "ghost") }),
  fc.record({ kind: fc.constant("swap" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("retarget" as const), at: fc.nat(), id: fc.constantFrom("call_0", "call_2", "ghost") }),
  fc.record({ kind: fc.constant("interject" as const), at: fc.nat() }),
);

function mutate(history: readonly Message[], mutations: readonly Mutation[]): Message[] {
  const broken = [...history];
  for (const mutation of mutations) {
    const at = broken.length === 0 ? 0 : mutation.at % broken.length;
    switch (mutation.kind) {
      case "delete":
        broken.splice(at, 1);
        break;
      case "duplicate":
        if (broken[at]) broken.splice(at + 1, 0, { ...broken[at] });
        break;
      case "orphan":
        broken.splice(at, 0, { role: "tool", tool_call_id: mutation.id, content: "stray result" });
        break;
      case "swap":
        if (at + 1 < broken.length) [broken[at], broken[at + 1]] = [broken[at + 1], broken[at]];
        break;
      case "retarget":
        if (broken[at]?.role === "tool") broken[at] = { ...broken[at], tool_call_id: mutation.id };
        break;
      case "interject":
        broken.splice(at, 0, { role: "user", content: "wait" });
        break;
    }
  }
  return broken;
}

/** A valid conversation broken by 1–5 random edits: deleted, duplicated, swapped, retargeted or stray messages. */
export const brokenHistoryArbitrary: fc.Arbitrary<Message[]> = fc
  .tuple(conversationArbitrary, fc.array(mutationArbitrary, { minLength: 1, maxLength: 5 }))
  .map(([history, mutations]) => mutate(history, mutations));

/** A class like an agent framework's workspace: state in own fields, changed through methods. */
export class Workspace {
  files: Record<string, string> = {};
  readonly history = new Map<string, string[]>();

  write(path: string, text: string): void {
    this.files[path] = text;
    this.history.set(path, [...(this.history.get(path) ?? []), text]);
  }
}

/**
 * State values of every kind a fork must protect (E-S2): plain data, Maps,
 * Sets, Dates, typed arrays and class instances, nested in one another.
 */
export const stateValueArbitrary: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("a", "b", "notes", "plan"), tie("value"), { maxKeys: 3 }),
    fc.array(fc.tuple(fc.string({ maxLength: 4 }), tie("value")), { maxLength: 3 }).map((entries) => new Map(entries)),
    fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 4 }).map((items) => new Set(items)),
    fc.integer({ min: 0, max: 2 ** 40 }).map((time) => new Date(time)),
    fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }).map((bytes) => new Uint8Array(bytes)),
    fc.array(fc.double({ noNaN: true }), { maxLength: 3 }).map((numbers) => new Float64Array(numbers)),
    fc.array(fc.tuple(fc.constantFrom("a.md", "b.md"), fc.string({ maxLength: 6 })), { maxLength: 3 }).map((writes) => {
      const workspace = new Workspace();
      for (const [path, text] of writes) workspace.write(path, text);
      return workspace;
    }),
  ),
})).value;

/**
 * Changes everything mutable inside `value` that a careless child might:
 * Map.set, Set.add, Date.setTime, typed array writes, array pushes, property
 * writes and a workspace's `write`. Writes a freeze refuses throw, as they must.
 */
export function mutateEverything(value: unknown, seen = new Set<unknown>()): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  const attempt = (change: () => void) => {
    try {
      change();
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
    }
  };
  if (value instanceof Map) {
    for (const entry of value.values()) mutateEverything(entry, seen);
    value.set("added by the child", 1);
  } else if (value instanceof Set) value.add("added by the child");
  else if (value instanceof Date) value.setTime(value.getTime() + 1);
  else if (value instanceof Uint8Array || value instanceof Float64Array) value.fill(7);
  else if (value instanceof Workspace) value.write("child.md", "from the child");
  else if (Array.isArray(value)) {
    for (const item of value) mutateEverything(item, seen);
    attempt(() => value.push("added by the child"));
  } else {
    for (const item of Object.values(value)) mutateEverything(item, seen);
    attempt(() => Object.assign(value, { added: "by the child" }));
  }
}

const tokens = fc.integer({ min: 0, max: 200_000 });

/** A provider's usage object as sent (OpenAI Chat, OpenAI Responses, Anthropic, AI SDK, the engine's own), with the usage it stands for (E-U1). */
export const providerUsageArbitrary: fc.Arbitrary<{ usage: UsageInput; expected: TokenUsage }> = fc.oneof(
  fc
    .record({ prompt: tokens, output: tokens, cached: tokens, reasoning: tokens, details: fc.boolean() })
    .map(({ prompt, output, cached, reasoning, details }) => ({
      usage: details
        ? {
            prompt_tokens: prompt + cached,
            completion_tokens: output,
            total_tokens: prompt + cached + output,
            prompt_tokens_details: { cached_tokens: cached },
            completion_tokens_details: { reasoning_tokens: reasoning },
          }
        : { prompt_tokens: prompt + cached, completion_tokens: output },
      expected: {
        promptTokens: prompt + cached,
        outputTokens: output,
        totalTokens: prompt + cached + output,
        cachedPromptTokens: details ? cached : 0,
        cacheWriteTokens: 0,
      },
    })),
  fc.record({ input: tokens, output: tokens, cached: tokens, reasoning: tokens }).map(({ input, output, cached, reasoning }) => ({
    usage: {
      input_tokens: input + cached,
      output_tokens: output,
      total_tokens: input + cached + output,
      input_tokens_details: { cached_tokens: cached },
      output_tokens_details: { reasoning_tokens: reasoning },
    },
    expected: { promptTokens: input + cached, outputTokens: output, totalTokens: input + cached + output, cachedPromptTokens: cached, cacheWriteTokens: 0 },
  })),
  fc.record({ input: tokens, output: tokens, read: fc.option(tokens), written: fc.option(tokens) }).map(({ input, output, read, written }) => ({
    usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: read, cache_creation_input_tokens: written, service_tier: "standard" },
    expected: {
      promptTokens: input + (read ?? 0) + (written ?? 0),
      outputTokens: output,
      totalTokens: input + (read ?? 0) + (written ?? 0) + output,
      cachedPromptTokens: read ?? 0,
      cacheWriteTokens: written ?? 0,
    },
  })),
  fc.record({ input: tokens, output: tokens, cached: tokens }).map(({ input, output, cached }) => ({
    usage: { inputTokens: input, outputTokens: output, totalTokens: input + output, cachedInputTokens: Math.min(cached, input) },
    expected: { promptTokens: input, outputTokens: output, totalTokens: input + output, cachedPromptTokens: Math.min(cached, input), cacheWriteTokens: 0 },
  })),
  fc.record({ prompt: tokens, output: tokens }).map(({ prompt, output }) => ({
    usage: { promptTokens: prompt, outputTokens: output },
    expected: { promptTokens: prompt, outputTokens: output, totalTokens: prompt + output, cachedPromptTokens: 0, cacheWriteTokens: 0 },
  })),
);
