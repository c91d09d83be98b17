import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/support/db";
import { useProxyHarness } from "./support/harness";

/** The upstream's time to answer in these tests: long enough that the split cannot be confused with the proxy's own work. */
const UPSTREAM_DELAY_MS = 150;

/** `upstream;dur=…, proxy;dur=…` read into numbers, with every other entry kept by name. */
function serverTiming(header: string | null): Record<string, number> {
  expect(header).not.toBeNull();
  const entries: Record<string, number> = {};
  for (const entry of header!.split(",")) {
    const [name, ...parameters] = entry.trim().split(";");
    const duration = parameters.find((parameter) => parameter.startsWith("dur="));
    entries[name] = Number(duration?.slice("dur=".length));
  }
  return entries;
}

describe("proxy: where a call's time went (Server-Timing)", () => {
  const test = useTestDatabase("sqlite");
  const harness = useProxyHarness(test);

  it("[P-T1] splits a whole answer's time into the upstream's wait and the proxy's own work", async () => {
    harness.fake.respondWith(() => ({ content: "late but whole", delayMs: UPSTREAM_DELAY_MS }));
    const started = performance.now();
    const { data, response } = await harness
      .agent("timed-whole")
      .chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "take your time" }] })
      .withResponse();
    const elapsed = performance.now() - started;
    expect(data.choices[0].message.content).toBe("late but whole");
    const timing = serverTiming(response.headers.get("server-timing"));
    expect(Object.keys(timing)).toEqual(["upstream", "proxy"]);
    expect(timing.upstream).toBeGreaterThanOrEqual(UPSTREAM_DELAY_MS - 1);
    // The proxy's share is the rest of the route: both parts lie within what the agent measured, however loaded the machine.
    expect(timing.proxy).toBeGreaterThanOrEqual(0);
    expect(timing.upstream + timing.proxy).toBeLessThanOrEqual(elapsed);
  });

  it("[P-T1] counts a stream's wait up to its headers only: the chunks that follow are not in it", async () => {
    // Headers after the delay, then six chunks 60 ms apart: 300 ms more the header cannot know about.
    harness.fake.respondWith(() => ({ content: "abcdefghijklmnopqrstuvwx", delayMs: UPSTREAM_DELAY_MS, chunkSize: 4, chunkDelayMs: 60 }));
    const started = performance.now();
    const { data: stream, response } = await harness
      .agent("timed-stream")
      .chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "stream it" }], stream: true })
      .withResponse();
    const untilHeaders = performance.now() - started;
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    const untilEnd = performance.now() - started;
    expect(text).toBe("abcdefghijklmnopqrstuvwx");
    const timing = serverTiming(response.headers.get("server-timing"));
    expect(timing.upstream).toBeGreaterThanOrEqual(UPSTREAM_DELAY_MS - 1);
    expect(timing.proxy).toBeGreaterThanOrEqual(0);
    // Both parts were over when the agent had the headers; the chunks' 300 ms came after, so no part can hold them.
    expect(timing.upstream + timing.proxy).toBeLessThanOrEqual(untilHeaders);
    expect(untilEnd - untilHeaders).toBeGreaterThanOrEqual(300 - 1);
  });

  it("[P-T1] times the Responses and Anthropic Messages routes and the forwarded model list alike", async () => {
    harness.fake.respondWith(() => ({ content: "timed", delayMs: UPSTREAM_DELAY_MS }));
    const responses = await harness.agent("timed-responses").responses.create({ model: "fake-gpt", input: "hello" }).withResponse();
    expect(responses.data.output_text).toBe("timed");
    const anthropic = await new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: "ctxlab-timed-anthropic", maxRetries: 0 }).messages
      .create({ model: "fake-claude", max_tokens: 64, messages: [{ role: "user", content: "hello" }] })
      .withResponse();
    expect(anthropic.data.content).toEqual([expect.objectContaining({ type: "text", text: "timed" })]);
    for (const { response } of [responses, anthropic])
      expect(serverTiming(response.headers.get("server-timing")).upstream).toBeGreaterThanOrEqual(UPSTREAM_DELAY_MS - 1);
    const models = await harness.agent("timed-models").models.list().withResponse();
    expect(Object.keys(serverTiming(models.response.headers.get("server-timing")))).toEqual(["upstream", "proxy"]);
  });

  it("[P-T1] keeps the upstream's own Server-Timing ahead of the proxy's, on an error passed through too", async () => {
    harness.fake.respondWith(() => ({ kind: "error", status: 429, delayMs: UPSTREAM_DELAY_MS, headers: { "server-timing": "queue;dur=42" } }));
    const error = await harness
      .agent("timed-error")
      .chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "too many" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const timing = serverTiming((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get("server-timing"));
    expect(Object.keys(timing)).toEqual(["queue", "upstream", "proxy"]);
    expect(timing.queue).toBe(42);
    expect(timing.upstream).toBeGreaterThanOrEqual(UPSTREAM_DELAY_MS - 1);
  });
});
