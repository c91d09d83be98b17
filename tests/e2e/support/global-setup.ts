import http from "node:http";
import net from "node:net";
import { echoReply, startFakeOpenAI, type FakeRequest, type FakeScript } from "../../support/fake-openai";
import { controlPort, upstreamPort, UPSTREAM_KEY } from "./upstream-ports";

/** True for the chat recorder's summarizer requests (its system prompt). */
function isSummaryRequest(request: FakeRequest): boolean {
  const messages = Array.isArray(request.body?.messages) ? (request.body.messages as { role?: string; content?: unknown }[]) : [];
  return messages[0]?.role === "system" && typeof messages[0].content === "string" && /^You (write the memory|summarize a chain)/.test(messages[0].content);
}

function listen(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error) => reject(new Error(`the e2e fake upstream cannot listen on 127.0.0.1:${port} (${error.message}); set E2E_UPSTREAM_PORT`)));
    server.listen(port, "127.0.0.1", () => resolve());
  });
}

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? null : JSON.parse(text);
}

/**
 * Starts the real fake OpenAI upstream (tests/support/fake-openai.ts) for
 * the whole run, reachable on a fixed port through a byte-for-byte TCP relay
 * (streams, drops and stalls pass as they are), with a control server beside
 * it. Answers: scripts queued through the control port first; summaries
 * with a recognisable summary; anything else echoed, streamed slowly enough
 * to watch. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const scripts: FakeScript[] = [];
  const fake = await startFakeOpenAI({
    apiKey: UPSTREAM_KEY,
    responder: (request) => {
      const script = scripts.shift();
      if (script) return script;
      if (isSummaryRequest(request)) return { content: "UPSTREAM SUMMARY: the conversation so far, summarised by the fake model." };
      const echo = echoReply(request);
      return { ...echo, chunkSize: 3, chunkDelayMs: 25 };
    },
  });
  const fakePort = Number(new URL(fake.baseUrl).port);
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const target = net.connect(fakePort, "127.0.0.1");
    for (const socket of [client, target]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    client.on("error", () => target.destroy());
    target.on("error", () => client.destroy());
    client.on("close", () => target.destroy());
    target.on("close", () => client.destroy());
    client.pipe(target).pipe(client);
  });
  const control = http.createServer(async (request, response) => {
    const reply = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    try {
      if (request.method === "POST" && request.url === "/enqueue") {
        const body = (await readJson(request)) as FakeScript[];
        scripts.push(...body);
        return reply(200, { queued: scripts.length });
      }
      if (request.method === "POST" && request.url === "/reset") {
        scripts.length = 0;
        return reply(200, { queued: 0 });
      }
      if (request.method === "GET" && request.url === "/requests") {
        return reply(200, {
          requests: fake.requests.map(({ method, path, body }) => ({
            method,
            path,
            body,
            summary: isSummaryRequest({ method, path, body, headers: {}, text: "" }),
          })),
        });
      }
      reply(404, { error: `no control route ${request.method} ${request.url}` });
    } catch (error) {
      reply(400, { error: (error as Error).message });
    }
  });
  await listen(relay, upstreamPort);
  await listen(control, controlPort);
  return async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([new Promise((resolve) => relay.close(resolve)), new Promise((resolve) => control.close(resolve)), fake.close()]);
  };
}
