import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context/messages";
import { readChatMessages, readRequest, writeRequest, WIRE_FORMATS, type RequestReadResult, type WireFormat } from "./index";
import { canonicalCounts, comparable, loadFixture, manifestCounts, warnedIndices } from "./test-support/fixtures";

interface Sample {
  file: string;
  format: WireFormat;
  /** How the manifest counts messages: wire messages and a system prompt, whatever the canonical split. */
  messages: (read: RequestReadResult, raw: Record<string, unknown>) => number;
}

const samples: Sample[] = [
  { file: "openai-chat-multimodal.json", format: "openai-chat", messages: (read) => read.messages.length },
  {
    file: "anthropic-thinking-image-document.json",
    format: "anthropic",
    messages: (_read, raw) => (raw.system === undefined ? 0 : 1) + (raw.messages as unknown[]).length,
  },
  {
    file: "openai-responses-request.json",
    format: "openai-responses",
    // Message items and the instructions: reasoning, calls and outputs are items of their own.
    messages: (read) => read.messages.filter((message) => message.role !== "tool" && message.content !== null).length,
  },
  {
    file: "gemini-contents.json",
    format: "gemini",
    messages: (_read, raw) => (raw.systemInstruction === undefined ? 0 : 1) + (raw.contents as unknown[]).length,
  },
];

describe("wire-format samples", () => {
  for (const sample of samples) {
    describe(sample.file, () => {
      const raw = loadFixture(sample.file) as Record<string, unknown>;
      const read = readRequest(sample.format, raw);

      it("[F-6] keeps every message, tool call, tool result, thinking block and media part the manifest counts", () => {
        const expected = manifestCounts(sample.file);
        expect({ messages: sample.messages(read, raw), ...canonicalCounts(read.messages) }).toEqual(expected);
      });

      it("[F-7] reads back the same canonical messages and tools after a trip through its own format", () => {
        const written = writeRequest(sample.format, read);
        expect(written.warnings).toEqual([]);
        const back = readRequest(sample.format, written.value);
        expect(back.messages).toEqual(read.messages);
        expect(back.tools).toEqual(read.tools);
      });

      for (const target of WIRE_FORMATS.filter((format) => format !== sample.format)) {
        it(`[F-8] through ${target} and back, every message that changed was warned about`, () => {
          const written = writeRequest(target, read);
          const back = readRequest(target, written.value);
          const warned = warnedIndices(written.warnings);
          const systemMoved = written.warnings.some((warning) => warning.code === "system-moved");
          if (!systemMoved) expect(back.messages).toHaveLength(read.messages.length);
          const before = comparable(read.messages);
          const after = comparable(back.messages);
          before.forEach((message, index) => {
            if (!warned.has(index)) expect(after[index], `message ${index}`).toEqual(message);
          });
          expect(canonicalCounts(back.messages).toolCalls + countDroppedCalls(written.warnings)).toBeGreaterThanOrEqual(
            canonicalCounts(read.messages).toolCalls,
          );
        });
      }
    });
  }

  describe("openai-legacy-functions.jsonl", () => {
    const lines = loadFixture("openai-legacy-functions.jsonl") as { messages: unknown[] }[];

    it("[F-C3] gives a legacy call and its function result the same id, so the turn pairs", () => {
      const conversations = lines.map((line) => readChatMessages(line.messages).messages);
      const counts = conversations.map((messages) => canonicalCounts(messages));
      expect(conversations.flat()).toHaveLength(manifestCounts("openai-legacy-functions.jsonl").messages);
      expect(counts.reduce((sum, count) => sum + count.toolCalls, 0)).toBe(2);
      for (const messages of conversations) {
        const call = messages.find((message: Message) => message.tool_calls !== undefined);
        const result = messages.find((message: Message) => message.role === "tool");
        expect(result?.tool_call_id).toBe(call?.tool_calls?.[0].id);
      }
    });

    it("[F-7] writes legacy functions back as functions", () => {
      const read = readRequest("openai-chat", lines[0]);
      const written = writeRequest("openai-chat", read);
      // The call's absent content is written as the null it means.
      const messages = lines[0].messages.map((message) => ({ content: null, ...(message as object) }));
      expect(written.value).toEqual({ ...lines[0], messages });
    });
  });
});

function countDroppedCalls(warnings: readonly { code: string; message: string }[]): number {
  return warnings.filter((warning) => warning.code === "part-dropped" && warning.message.includes("server_tool_use")).length;
}
