import { describe, expect, it } from "vitest";
import { SseParser } from "./sse";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("SseParser", () => {
  it("yields each event once its blank line arrives, however the bytes are split", () => {
    const text = 'data: {"a":1}\n\n: comment\nevent: ping\ndata: x\ndata: y\n\ndata: [DONE]\n\n';
    for (let size = 1; size <= text.length; size += 3) {
      const parser = new SseParser();
      const events = [];
      for (let index = 0; index < text.length; index += size) events.push(...parser.push(bytes(text.slice(index, index + size))));
      events.push(...parser.end());
      expect(events).toEqual([
        { event: null, data: '{"a":1}' },
        { event: "ping", data: "x\ny" },
        { event: null, data: "[DONE]" },
      ]);
    }
  });

  it("accepts \\r\\n and \\r line ends, a \\r\\n split across chunks, and a UTF-8 character split across chunks", () => {
    const parser = new SseParser();
    const encoded = bytes("data: é\r\n\r\ndata: b\r\rdata: c\r");
    const events = [...parser.push(encoded.slice(0, 7)), ...parser.push(encoded.slice(7, 10)), ...parser.push(encoded.slice(10)), ...parser.end()];
    expect(events).toEqual([
      { event: null, data: "é" },
      { event: null, data: "b" },
      { event: null, data: "c" },
    ]);
  });

  it("flushes an event the stream ended without a blank line", () => {
    const parser = new SseParser();
    expect(parser.push(bytes("data: last"))).toEqual([]);
    expect(parser.end()).toEqual([{ event: null, data: "last" }]);
  });
});
