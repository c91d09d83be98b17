import { describe, expect, it } from "vitest";
import { LiveBus } from "./bus";
import type { LiveEvent } from "./events";
import { liveEventResponse } from "./sse";

const event: LiveEvent = {
  type: "branch-created",
  conversationId: "c1",
  at: "2026-01-01T00:00:00.000Z",
  branch: { id: "b", conversationId: "c1", name: "main@1", parentId: "a", forkPosition: 1, length: 1, createdAt: "2026-01-01T00:00:00.000Z" },
};

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, pattern: RegExp): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!pattern.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe("liveEventResponse", () => {
  it("streams events as event: + data: JSON, with heartbeat comments, as an uncompressed event stream", async () => {
    const bus = new LiveBus();
    const aborter = new AbortController();
    const response = liveEventResponse(new Request("http://x/", { signal: aborter.signal }), "c1", { bus, heartbeatMs: 5 });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toContain("no-transform");
    const reader = response.body!.getReader();
    expect(await readUntil(reader, /subscribed to c1/)).toMatch(/^retry: \d+\n: subscribed to c1\n\n/);
    bus.publish(event);
    const text = await readUntil(reader, /: heartbeat/);
    expect(text).toContain(`event: branch-created\ndata: ${JSON.stringify(event)}\n\n`);
    aborter.abort();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(bus.listenerCount()).toBe(0);
  });

  it("unsubscribes when the stream is cancelled", async () => {
    const bus = new LiveBus();
    const response = liveEventResponse(new Request("http://x/"), "c1", { bus });
    expect(bus.listenerCount("c1")).toBe(1);
    await response.body!.cancel();
    expect(bus.listenerCount("c1")).toBe(0);
  });
});
