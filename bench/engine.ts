import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import { Context, defaultPipeline, makeConfig, STATE_KEYS, TiktokenCounter, type Message } from "@/lib/context";
import { buildConversation, loadTrajectories } from "./corpus";
import { formatMb, formatMs, machine, table, writeSection } from "./results";

const SIZES = [1_000, 10_000, 100_000];

interface RunFigures {
  ms: number;
  heapPeak: number;
  messagesOut: number;
  tokensIn: number;
  tokensOut: number;
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** One default `pre_llm_call` run; heap sampled before, at every processor boundary and after. */
async function run(history: readonly Message[]): Promise<RunFigures> {
  const config = makeConfig("copilot");
  const pipeline = defaultPipeline(config);
  const context = new Context("bench", { config });
  collectGarbage();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  };
  pipeline.on("processor-end", sample);
  const started = performance.now();
  context.state.set(STATE_KEYS.history, history);
  const trace = await pipeline.fire("pre_llm_call", context);
  const ms = performance.now() - started;
  sample();
  const steps = trace.steps;
  return { ms, heapPeak: peak, messagesOut: steps.at(-1)?.messagesAfter ?? 0, tokensIn: steps[0]?.tokensBefore ?? 0, tokensOut: steps.at(-1)?.tokensAfter ?? 0 };
}

/** Counting a whole conversation from cold: the engine's counter against js-tiktoken, the reference. */
function countSideBySide(history: readonly Message[]): { engineMs: number; referenceMs: number; tokens: number; referenceTokens: number } {
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
    for (const call of message.tool_calls ?? []) referenceTokens += reference.encode(call.function.name, [], []).length + reference.encode(call.function.arguments, [], []).length;
  }
  return { engineMs, referenceMs: performance.now() - started, tokens, referenceTokens };
}

export async function benchEngine(): Promise<string> {
  const trajectories = loadTrajectories();
  const rows: (string | number)[][] = [];
  const countRows: (string | number)[][] = [];
  for (const size of SIZES) {
    const conversation = buildConversation(size, trajectories);
    const cold = await run(conversation);
    const warm = await run(conversation);
    const appended = await run([...conversation, { role: "user", content: "One more thing: what is my baggage allowance?" }]);
    const label = size.toLocaleString("en");
    rows.push([label, "cold", formatMs(cold.ms), formatMb(cold.heapPeak), `${cold.tokensIn.toLocaleString("en")} → ${cold.tokensOut.toLocaleString("en")}`, `${size} → ${cold.messagesOut}`]);
    rows.push([label, "warm re-run", formatMs(warm.ms), formatMb(warm.heapPeak), "", ""]);
    rows.push([label, "re-run after appending one message", formatMs(appended.ms), formatMb(appended.heapPeak), "", ""]);
    const counted = countSideBySide(conversation);
    countRows.push([label, formatMs(counted.engineMs), formatMs(counted.referenceMs), (counted.referenceMs / counted.engineMs).toFixed(1), counted.tokens === counted.referenceTokens ? `yes (${counted.tokens.toLocaleString("en")})` : `NO: ${counted.tokens} vs ${counted.referenceTokens}`]);
    console.log(`engine ${label}: cold ${formatMs(cold.ms)} ms, warm ${formatMs(warm.ms)} ms, append ${formatMs(appended.ms)} ms`);
  }
  const markdown = [
    "## Engine: default `pre_llm_call` pipeline",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}. Conversations are real tau-bench airline trajectories (MIT) laid end to end, ending on a user turn; copilot mode, default budget. Heap peak = the highest heap use above the starting point, sampled after every processor.`,
    "",
    table(["messages", "run", "ms", "heap peak MB", "tokens in → out", "messages in → out"], rows),
    "",
    "### Counting a whole conversation from cold, side by side",
    "",
    "The engine's counter (gpt-tokenizer's BPE core with js-tiktoken's split patterns) against js-tiktoken, the reference, on the same messages in the same process (cl100k_base, cookbook accounting).",
    "",
    table(["messages", "engine ms", "js-tiktoken ms", "speed-up", "identical count"], countRows),
  ].join("\n");
  writeSection("engine", markdown);
  return markdown;
}
