// fast-check generators of conversations: valid ones for the processors' invariants,
// broken ones for sanitizeHistory.
import fc from "fast-check";
import { CONVERSATION_SUMMARY_PREFIX, type Message, type ToolCall } from "../messages";

const WORDS = [
  "flight", "refund", "booking", "reservation", "yes", "please", "the", "status", "SFO", "JFK", "42", "2024-05-15",
  "gift_card", "😀", "中文", "<|endoftext|>", "line\r\nbreak", "  spaced", "café", "\uFEFFmark", "O'Brien's",
];

/** A short sentence from a word pool that includes multilingual, emoji and special-token-looking text. */
export const shortTextArbitrary = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 10 }).map((words) => words.join(" "));

/** Several hundred to a few thousand characters: what the offloader is for. */
export const longTextArbitrary = fc
  .tuple(shortTextArbitrary, fc.integer({ min: 300, max: 2_500 }))
  .map(([text, size]) => text.repeat(Math.ceil(size / (text.length + 1)) + 1));

export const contentArbitrary = fc.oneof({ weight: 8, arbitrary: shortTextArbitrary }, { weight: 1, arbitrary: longTextArbitrary });

type IdScheme = "unique" | "positional" | "same";

interface StepPlan {
  note: string | null;
  calls: { name: string; args: string; result: string }[];
  /** Results in a different order from the calls (still a valid block). */
  shuffled: boolean;
}

interface RoundPlan {
  /** `null`: the agent speaks again without a user turn (R1). */
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
  systemSlots: fc.array(fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0), { minLength: 64, maxLength: 64 }),
  leadingSystem: fc.boolean(),
  earlierSummary: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0),
});

/** Builds the messages of a plan; the result is a valid history (P1). */
function buildConversation(plan: ConversationPlan): Message[] {
  const history: Message[] = [];
  let slot = 0;
  let counter = 0;
  const maybeSystem = () => {
    if (plan.systemSlots[slot++ % plan.systemSlots.length]) history.push({ role: "system", content: `note ${slot}` });
  };
  if (plan.leadingSystem) history.push({ role: "system", content: "You are an airline agent." });
  if (plan.earlierSummary) history.push({ role: "system", content: `${CONVERSATION_SUMMARY_PREFIX}\n- user: earlier question` });
  plan.rounds.forEach((round, index) => {
    const last = index === plan.rounds.length - 1;
    maybeSystem();
    if (round.question !== null || (last && plan.ending === "after-user")) history.push({ role: "user", content: round.question ?? "go on" });
    if (last && plan.ending === "after-user") return;
    if (round.followUp !== null) history.push({ role: "user", content: round.followUp });
    const steps = last && plan.ending === "after-results" && round.steps.length === 0 ? [{ note: null, calls: [{ name: "f", args: "{}", result: "ok" }], shuffled: false }] : round.steps;
    for (const step of steps) {
      maybeSystem();
      const toolCalls: ToolCall[] = step.calls.map((call, position) => ({
        id: plan.idScheme === "unique" ? `call_${counter++}` : plan.idScheme === "positional" ? `call_${position}` : "call_0",
        type: "function",
        function: { name: call.name, arguments: call.args },
      }));
      history.push({ role: "assistant", content: step.note, tool_calls: toolCalls });
      const results = step.calls.map((call, position): Message => ({ role: "tool", tool_call_id: toolCalls[position].id, name: call.name, content: call.result }));
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

/** A random valid conversation (P1 holds): system messages anywhere outside tool blocks, parallel calls, reused ids, sometimes an incomplete last round. */
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
