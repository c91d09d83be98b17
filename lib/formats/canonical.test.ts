import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context/messages";
import { buildMessage, parseDataUrl, partsToWrite } from "./canonical";
import { writeAnthropicRequest } from "./anthropic/write";

describe("the canonical normal form", () => {
  it("[F-1] keeps parts only for more than one plain text, and gives an assistant without text null", () => {
    expect(buildMessage("user", [{ type: "text", text: "hi" }])).toEqual({ role: "user", content: "hi" });
    expect(buildMessage("assistant", [])).toEqual({ role: "assistant", content: null });
    expect(buildMessage("tool", [], { tool_call_id: "c" })).toEqual({ role: "tool", content: "", tool_call_id: "c" });
    expect(
      buildMessage("user", [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ]).content,
    ).toBe("a\nb");
  });

  it("[F-2] holds the last part's cache mark as the message's, unless tool calls end the message", () => {
    const marked = { type: "text" as const, text: "a", cacheControl: { type: "ephemeral" as const } };
    expect(buildMessage("user", [marked])).toEqual({ role: "user", content: "a", cache_control: { type: "ephemeral" } });
    const call = { id: "c", type: "function" as const, function: { name: "f", arguments: "{}" } };
    expect(buildMessage("assistant", [marked], { tool_calls: [call] }).parts).toEqual([marked]);
  });

  it("[F-3] writes a processor's rewritten content in place of the text parts, keeping the others", () => {
    const message: Message = {
      role: "tool",
      content: "[truncated]",
      tool_call_id: "c",
      parts: [
        { type: "text", text: "a very long result" },
        { type: "image", source: { type: "url", url: "https://x/y.png" } },
        { type: "text", text: "more" },
      ],
    };
    expect(partsToWrite(message)).toEqual([
      { type: "text", text: "[truncated]" },
      { type: "image", source: { type: "url", url: "https://x/y.png" } },
    ]);
    const written = writeAnthropicRequest({ messages: [message] }).value.messages as { content: { content: unknown }[] }[];
    expect(written[0].content[0].content).toEqual([
      { type: "text", text: "[truncated]" },
      { type: "image", source: { type: "url", url: "https://x/y.png" } },
    ]);
  });

  it("reads data URLs, with or without parameters", () => {
    expect(parseDataUrl("data:image/png;base64,AAAA")).toEqual({ mediaType: "image/png", data: "AAAA" });
    expect(parseDataUrl("https://x/y.png")).toBeUndefined();
  });
});
