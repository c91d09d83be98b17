import fs from "node:fs";
import path from "node:path";
import { startBenchProxy, startClient } from "./proxy";
import { formatMs, machine, median, table, writeSection } from "./results";

/**
 * What one call of a long session costs the proxy as the session grows
 * (PX-C1): one agent makes 200 calls, each adding a 2.5 KB question and the
 * answer to the history it sends (about 1 MB by the last call). For each
 * call: the time the proxy adds (the call through the proxy minus the same
 * body sent to the fake directly, interleaved) and the bytes SQLite wrote
 * for it (its write-ahead log, checkpoints held off, after the recorder is
 * idle). Calls 1–10 against 191–200.
 */

const CALLS = 200;
const QUESTION_CHARACTERS = 2_500;

function question(index: number): string {
  const line = `Call ${index}: please check booking REF-${index} against the fare rules and the seat map again; `;
  return line.repeat(Math.ceil(QUESTION_CHARACTERS / line.length)).slice(0, QUESTION_CHARACTERS);
}

interface CallFigures {
  historyBytes: number;
  addedMs: number;
  walBytes: number;
}

export async function benchProxyGrowth(): Promise<string> {
  const bench = await startBenchProxy("growth");
  const { db, folder, recorder, direct, proxied } = bench;
  // Every page SQLite writes stays in the log, so its growth is what a call wrote.
  await db.$queryRawUnsafe("PRAGMA wal_autocheckpoint=0");
  const wal = path.join(folder, "bench.db-wal");
  const walSize = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
  const agent = startClient();

  const messages: { role: string; content: string }[] = [{ role: "system", content: "You are a careful travel agent." }];
  const figures: CallFigures[] = [];
  for (let index = 1; index <= CALLS; index += 1) {
    const asked = question(index);
    messages.push({ role: "user", content: asked });
    const body = JSON.stringify({ model: "fake-gpt", messages });
    const [directCall] = await agent.run([{ url: direct, key: "sk-bench", body }]);
    await recorder.idle();
    const before = walSize();
    const [proxiedCall] = await agent.run([{ url: proxied, key: "ctxlab-growth", body }]);
    await recorder.idle();
    figures.push({ historyBytes: body.length, addedMs: proxiedCall.total - directCall.total, walBytes: walSize() - before });
    // The fake's default answer; the next request carries it, so the session stays on one branch.
    messages.push({ role: "assistant", content: `echo: ${asked}` });
  }
  await agent.close();
  await bench.close();

  const span = (from: number, to: number) => figures.slice(from - 1, to);
  const row = (label: string, calls: CallFigures[]) => [
    label,
    `${Math.round(median(calls.map((call) => call.historyBytes)) / 1024)} KB`,
    formatMs(median(calls.map((call) => call.addedMs))),
    `${Math.round(median(calls.map((call) => call.walBytes)) / 1024)} KB`,
  ];
  const early = span(1, 10);
  const late = span(CALLS - 9, CALLS);
  const ratio = (pick: (call: CallFigures) => number) => median(late.map(pick)) / Math.max(median(early.map(pick)), 1e-9);
  const markdown = [
    "## Proxy: the cost of one call as a session grows",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}, in one process: one agent (\`fetch\` on a worker thread) makes ${CALLS} chat calls, each adding a ${QUESTION_CHARACTERS / 1000} KB question and the previous answer to the history it sends, through the proxy's real route handler (tests/proxy/support/route-server.ts, not \`next start\`) recording into SQLite, and the same body straight to the fake upstream, interleaved. "Added" is the proxied call's time minus the direct one's; "written" is what SQLite's write-ahead log grew by for the call (its journal row, exchange and turns; checkpoints held off), once the recorder was idle.`,
    "",
    table(["calls", "history sent", "added p50 ms", "written p50"], [row("1–10", early), row(`${CALLS - 9}–${CALLS}`, late)]),
    "",
    `Late against early: ${ratio((call) => call.addedMs).toFixed(1)}× the added time, ${ratio((call) => call.walBytes).toFixed(1)}× the bytes written, for ${ratio((call) => call.historyBytes).toFixed(0)}× the history.`,
  ].join("\n");
  writeSection("proxy-growth", markdown);
  console.log(markdown);
  return markdown;
}
