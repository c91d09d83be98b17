import { describe, expect, it } from "vitest";
import { readRequest } from "@/lib/formats";
import { messagesSchema } from "./schemas";

describe("messageSchema", () => {
  it("accepts what the wire converters read: parts, cache marks, provider extras", () => {
    const { messages } = readRequest("anthropic", {
      system: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }],
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "url", url: "https://x/y.png" } },
            { type: "text", text: "what?" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "server_tool_use", id: "s", name: "web_search", input: {} },
          ],
        },
      ],
    });
    const parsed = messagesSchema.safeParse(messages);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(messages);
  });

  it("refuses the engine mark, unknown fields and unknown part types, naming the path", () => {
    const result = messagesSchema.safeParse([
      { role: "system", content: "x", engine: { kind: "conversation-summary" } },
      { role: "user", content: "x", parts: [{ type: "video", source: { type: "url", url: "u" } }] },
    ]);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(["0", "1.parts.0.type"]);
  });
});
