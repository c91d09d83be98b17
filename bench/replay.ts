import os from "node:os";
import { callPoints, comparePolicies, presetPolicy, type ComparedPolicy, type Message } from "@/lib/context";
import { buildConversation } from "./corpus";
import { formatMs, machine, median, table, writeSection } from "./results";

export const CALLS = 200;
const REPEATS = 5;
const PRICES = { input: 2.5, cachedInput: 1.25, output: 10 };

/** Real tau-bench turns laid end to end (corpus.ts), cut right after the CALLS-th assistant turn. */
export function conversationWithCalls(calls: number): Message[] {
  for (let size = calls * 2; ; size += calls) {
    const messages = buildConversation(size);
    const points = callPoints(messages);
    if (points.length >= calls) return messages.slice(0, points[calls - 1] + 1);
  }
}

const POLICIES: ComparedPolicy[] = [
  { id: "observation_masking", label: "Observation masking", policy: presetPolicy("observation_masking") },
  {
    id: "clear_tool_uses",
    label: "Tool-result clearing",
    policy: { ...presetPolicy("clear_tool_uses"), tuning: { clear_tool_uses: { triggerTokens: 8_000, keepToolUses: 3 } } },
  },
  { id: "navigator", label: "Navigator", policy: presetPolicy("navigator") },
];

/** Wall and CPU milliseconds: on a shared machine the CPU time is the steadier figure. */
async function timed(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1_000 };
}

/**
 * Replays a 200-call conversation under raw and three policies (comparePolicies):
 * cold (message objects no cache has seen) and warm (the same conversation again,
 * as when the user changes one policy's setting and compares again).
 */
export async function benchReplay(): Promise<void> {
  const load = os.loadavg()[0];
  const conversation = conversationWithCalls(CALLS);
  const compare = (messages: readonly Message[]) => comparePolicies({ messages, policies: POLICIES, prices: PRICES, keepMessages: false });
  const cold: { wall: number; cpu: number }[] = [];
  const warm: { wall: number; cpu: number }[] = [];
  let last: Awaited<ReturnType<typeof compare>> | undefined;
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const fresh = conversation.map((message) => ({ ...message }));
    cold.push(await timed(async () => (last = await compare(fresh))));
    warm.push(await timed(() => compare(fresh)));
  }
  const rows = last!.runs.map((run) => [
    run.label,
    run.replay.totals.calls,
    run.replay.totals.inputTokens.toLocaleString("en-US"),
    `${(run.replay.totals.cacheHitShare * 100).toFixed(0)}%`,
    run.replay.totals.cacheBreaks,
    `$${run.replay.totals.cost!.total.toFixed(2)}`,
  ]);
  const markdown = [
    "## Replay: one conversation, raw and three policies",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, load average ${load.toFixed(1)} at the start (wall time stretches with it; CPU time much less). A conversation of ${conversation.length} real tau-bench messages (MIT) with ${CALLS} assistant turns, replayed call by call under raw, observation masking, tool-result clearing (8,000-token trigger) and navigator with \`comparePolicies\`; medians of ${REPEATS}.`,
    "",
    table(
      ["run", "wall ms", "CPU ms"],
      [
        ["cold (new message objects: every message counted once)", formatMs(median(cold.map((run) => run.wall))), formatMs(median(cold.map((run) => run.cpu)))],
        ["warm (the same conversation compared again)", formatMs(median(warm.map((run) => run.wall))), formatMs(median(warm.map((run) => run.cpu)))],
      ],
    ),
    "",
    table(["policy", "calls", "input tokens", "cache hits", "cache breaks", "cost at $2.50/$1.25/$10 per M"], rows),
  ].join("\n");
  console.log(markdown);
  writeSection("replay", markdown);
}
