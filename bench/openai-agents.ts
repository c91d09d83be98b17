import { Worker } from "node:worker_threads";

/**
 * The agents of the proxy benchmarks: the official `openai` client (a client
 * per base URL and key, its default headers, no retries) on a worker thread,
 * an event loop of its own as an agent in another process has, so the
 * server's or the fake upstream's work in the bench's thread is not counted
 * against the answer the agent already has.
 */

export interface Job {
  baseURL: string;
  apiKey: string;
  stream: boolean;
  messages: { role: string; content: string }[];
  /** List the models instead (forwarded, nothing recorded): the server's own cost per request. */
  models?: boolean;
  /** Time the agent waits before sending, as it would while its model thinks: the previous call's recording runs meanwhile. */
  pauseMs?: number;
}

export interface Timing {
  firstChunk: number;
  total: number;
  /** The route's own work (its Server-Timing `proxy` entry); null for direct calls. */
  proxyMs: number | null;
  /** The server's whole time to the answer's headers (its `server` entry, SV-6), the route's and the upstream's included. */
  serverMs: number | null;
  /** The time waiting for the upstream (its `upstream` entry). */
  upstreamMs: number | null;
}

/** The agents' side: the official client, a client per key, `concurrency` calls at a time. */
const CLIENT = `
const OpenAI = require("openai").default ?? require("openai");
const clients = new Map();
function clientFor(baseURL, apiKey) {
  const key = baseURL + " " + apiKey;
  if (!clients.has(key)) clients.set(key, new OpenAI({ baseURL, apiKey, maxRetries: 0 }));
  return clients.get(key);
}
/** One Server-Timing entry of a call (\`proxy\`, \`server\`, \`upstream\`), null from the fake. */
function entryMs(response, name) {
  const entry = (response.headers.get("server-timing") ?? "").split(",").find((part) => part.trim().startsWith(name + ";"));
  return entry ? Number(entry.split("dur=")[1]) : null;
}
function timingOf(response, firstChunk, total) {
  return { firstChunk, total, proxyMs: entryMs(response, "proxy"), serverMs: entryMs(response, "server"), upstreamMs: entryMs(response, "upstream") };
}
async function call({ baseURL, apiKey, stream, messages, pauseMs, models }) {
  if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  const client = clientFor(baseURL, apiKey);
  const started = performance.now();
  if (models) {
    const { response } = await client.models.list().withResponse();
    const total = performance.now() - started;
    return timingOf(response, total, total);
  }
  if (!stream) {
    const { response } = await client.chat.completions.create({ model: "fake-gpt", messages }).withResponse();
    const total = performance.now() - started;
    return timingOf(response, total, total);
  }
  const { data: chunks, response } = await client.chat.completions.create({ model: "fake-gpt", messages, stream: true }).withResponse();
  let firstChunk = Number.NaN;
  for await (const _chunk of chunks) if (Number.isNaN(firstChunk)) firstChunk = performance.now() - started;
  return timingOf(response, firstChunk, performance.now() - started);
}
`;

/** The worker's side of `startAgentWorker`: runs the jobs `concurrency` at a time with the source's `call(job)`, posting each one's timing in job order. */
const RUN_JOBS = `
parentPort.on("message", async ({ jobs, concurrency }) => {
  const timings = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const index = next++;
      timings[index] = await call(jobs[index]);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
    parentPort.postMessage({ timings });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

/**
 * Starts a worker of agents: `source` defines `async function call(job)` (with
 * `parentPort` in scope); `run` sends jobs `concurrency` at a time and
 * resolves to each one's result, in job order.
 */
export function startAgentWorker<J, T>(source: string) {
  const worker = new Worker(`const { parentPort } = require("node:worker_threads");\n${source}\n${RUN_JOBS}`, { eval: true });
  return {
    run(jobs: J[], concurrency = 1): Promise<T[]> {
      return new Promise((resolve, reject) => {
        worker.once("message", (message: { timings?: T[]; error?: string }) => (message.timings ? resolve(message.timings) : reject(new Error(message.error))));
        worker.postMessage({ jobs, concurrency });
      });
    },
    close: () => worker.terminate(),
  };
}

/** Starts the official-client agents: `run` resolves to each call's timing, in job order. */
export function startOpenAIAgents() {
  return startAgentWorker<Job, Timing>(CLIENT);
}

/** Turn `turn` of an agent's conversation, its history included. */
export function turnMessages(agent: string, turn: number): Job["messages"] {
  const messages = [{ role: "system", content: "You are a helpful travel agent. Answer briefly and cite the booking reference." }];
  for (let past = 0; past <= turn; past += 1) {
    const question = `Turn ${past}: can you move booking ${agent} to the ${past + 1}th of May, economy, window seat?`;
    messages.push({ role: "user", content: question });
    if (past < turn) messages.push({ role: "assistant", content: `echo: ${question}` });
  }
  return messages;
}
