import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import { Context, defaultPipeline, makeConfig, ProcessorPipeline, STATE_KEYS, TiktokenCounter, TokenBudgetProcessor, type Message } from "@/lib/context";
import { buildConversation, loadTrajectories } from "./corpus";
import { floor, langchainTrim, mastraTokenLimiter, type Peer } from "./engine-peers";
import { formatMs, machine, median, table, writeSection } from "./results";

const SIZES = [10_000, 100_000];
/** LangChain's trim re-counts as it searches: past this size one run takes minutes, so it is measured at 10,000 only. */
const LANGCHAIN_LIMIT = 10_000;
const BUDGET = 8_000;
const REPEATS = 5;

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** The engine's pipeline as a peer: a fresh pipeline and context per run, as processHistory does. */
function ours(name: string, pipelineFor: () => ProcessorPipeline): Peer {
  const config = makeConfig("copilot", { extra: { token_budget: BUDGET, token_encoding: "cl100k_base" } });
  return {
    name,
    run: async (history) => {
      const context = new Context("bench", { config });
      context.state.set(STATE_KEYS.history, history);
      await pipelineFor().fire("pre_llm_call", context);
      return (context.state.get(STATE_KEYS.history) ?? []).length;
    },
  };
}

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  collectGarbage();
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Cold (fresh message objects), warm re-run (the same array) and after one appended message (a new array, a new message each time); medians. */
async function measure(peer: Peer, conversation: readonly Message[]): Promise<{ cold: number; warm: number; append: number }> {
  const fresh = conversation.map((message) => ({ ...message }));
  const cold = await timed(() => peer.run(fresh));
  const warm: number[] = [];
  const append: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    warm.push(await timed(() => peer.run(fresh)));
    const appended = [...fresh, { role: "user" as const, content: `One more thing (${repeat}): what is my baggage allowance?` }];
    append.push(await timed(() => peer.run(appended)));
  }
  return { cold, warm: median(warm), append: median(append) };
}

/** Counting a whole conversation from cold: the engine's counter against js-tiktoken, the reference. */
function countSideBySide(history: readonly Message[]): { engineMs: number; referenceMs: number; same: boolean; tokens: number } {
  const reference = new Tiktoken(cl100kRanks);
  const copies = history.map((message) => ({ ...message }));
  let started = performance.now();
  const tokens = new TiktokenCounter({ encoding: "cl100k_base" }).countMessages(copies);
  const engineMs = performance.now() - started;
  started = performance.now();
  let referenceTokens = 3;
  for (const message of history) {
    referenceTokens += 3 + reference.encode(message.role, [], []).length + reference.encode(message.content ?? "", [], []).length;
    if (message.name !== undefined) referenceTokens += 1 + reference.encode(message.name, [], []).length;
    if (message.tool_call_id !== undefined) referenceTokens += reference.encode(message.tool_call_id, [], []).length;
    for (const call of message.tool_calls ?? [])
      referenceTokens += reference.encode(call.function.name, [], []).length + reference.encode(call.function.arguments, [], []).length;
  }
  return { engineMs, referenceMs: performance.now() - started, same: tokens === referenceTokens, tokens };
}

export async function benchEngine(): Promise<string> {
  const trajectories = loadTrajectories();
  const peers: Peer[] = [
    ours("ours, default pipeline (copilot)", () => defaultPipeline(makeConfig("copilot", { extra: { token_budget: BUDGET, token_encoding: "cl100k_base" } }))),
    ours("ours, token budget only", () => new ProcessorPipeline().register(new TokenBudgetProcessor({ maxTokens: BUDGET }))),
    mastraTokenLimiter(BUDGET),
    langchainTrim(BUDGET),
    floor(BUDGET),
  ];
  const rows: (string | number)[][] = [];
  const ratios: (string | number)[][] = [];
  const countRows: (string | number)[][] = [];
  for (const size of SIZES) {
    const conversation = buildConversation(size, trajectories);
    const label = size.toLocaleString("en");
    const figures = new Map<string, { cold: number; warm: number; append: number }>();
    for (const peer of peers) {
      if (peer.name.startsWith("LangChain") && size > LANGCHAIN_LIMIT) continue;
      const measured = await measure(peer, conversation);
      figures.set(peer.name, measured);
      rows.push([label, peer.name, formatMs(measured.cold), formatMs(measured.warm), formatMs(measured.append)]);
      console.log(
        `engine ${label} ${peer.name}: cold ${formatMs(measured.cold)} ms, warm ${formatMs(measured.warm)} ms, append ${formatMs(measured.append)} ms`,
      );
    }
    const mine = figures.get(peers[0].name)!;
    for (const peer of peers.slice(2)) {
      const theirs = figures.get(peer.name);
      if (!theirs) continue;
      ratios.push([label, peer.name, `${(theirs.warm / mine.warm).toFixed(1)}×`, `${(theirs.append / mine.append).toFixed(1)}×`]);
    }
    const counted = countSideBySide(conversation);
    countRows.push([
      label,
      formatMs(counted.engineMs),
      formatMs(counted.referenceMs),
      (counted.referenceMs / counted.engineMs).toFixed(1),
      counted.same ? `yes (${counted.tokens.toLocaleString("en")})` : "NO",
    ]);
  }
  const markdown = [
    "## Engine: the default `pre_llm_call` pipeline against its peers",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, in one process. Conversations are real tau-bench airline trajectories (MIT) laid end to end (bench/corpus.ts), ending on a user turn; budget ${BUDGET.toLocaleString("en")} tokens, cl100k_base. Cold = the first run over fresh message objects; warm = the same array again; append = a new array with one more user message (a new one each time). Warm and append are medians of ${REPEATS}, a gc before each run. Each peer gets the same messages in its own format, converted once, outside the timing. The floor keeps counts in an Int32Array and makes one backward cut. LangChain's \`trimMessages\` is measured at ${LANGCHAIN_LIMIT.toLocaleString("en")} messages only (past that one run takes minutes). Mastra's current \`TokenLimiterProcessor\` (@mastra/core 1.x) trims inside its agent's request stage (\`processLLMRequest\` on a MessageList), which needs an agent around it; it is not measured here.`,
    "",
    table(["messages", "implementation", "cold ms", "warm re-run ms", "after one appended message ms"], rows),
    "",
    "### How many times slower than the engine's default pipeline, same run",
    "",
    table(["messages", "peer", "warm", "append"], ratios),
    "",
    "### Counting a whole conversation from cold, side by side",
    "",
    "The engine's counter against js-tiktoken, the reference, on the same messages in the same process (cl100k_base, cookbook accounting).",
    "",
    table(["messages", "engine ms", "js-tiktoken ms", "speed-up", "identical count"], countRows),
  ].join("\n");
  writeSection("engine", markdown);
  return markdown;
}
