import { describe, expect, it } from "vitest";
import { readGeminiRequest, readGeminiResponse, writeGeminiRequest } from "../index";

describe("Gemini reader and writer", () => {
  it("[F-G4] gives id-less calls stable ids from their position and pairs responses by name in order", () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "both" }] },
        { role: "model", parts: [{ functionCall: { name: "a", args: {} } }, { functionCall: { name: "b", args: { x: 1 } } }] },
        { role: "user", parts: [{ functionResponse: { name: "b", response: { output: "B" } } }, { functionResponse: { name: "a", response: { ok: true } } }] },
      ],
    };
    const read = readGeminiRequest(body);
    expect(read.messages[1].tool_calls?.map((call) => call.id)).toEqual(["gemini_call_1_0", "gemini_call_1_1"]);
    expect(read.messages.slice(2).map((message) => [message.tool_call_id, message.content])).toEqual([
      ["gemini_call_1_1", "B"],
      ["gemini_call_1_0", '{"ok":true}'],
    ]);
    expect(read.warnings.map((warning) => warning.code)).toEqual(["call-id-generated"]);
    expect(writeGeminiRequest(read).value).toEqual(body);
    expect(readGeminiRequest(writeGeminiRequest(read).value).messages).toEqual(read.messages);
  });

  it("[F-G4] keeps ids Gemini sends", () => {
    const read = readGeminiRequest({
      contents: [
        { role: "model", parts: [{ functionCall: { id: "fc1", name: "a", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { id: "fc1", name: "a", response: {} } }] },
      ],
    });
    expect(read.messages[1].tool_call_id).toBe("fc1");
    expect(read.warnings).toEqual([]);
  });

  it("[F-G2] keeps thoughts with their signatures and a call's thought signature", () => {
    const body = {
      contents: [
        {
          role: "model",
          parts: [
            { text: "plan", thought: true, thoughtSignature: "s1" },
            { functionCall: { id: "c", name: "f", args: {} }, thoughtSignature: "s2" },
          ],
        },
      ],
    };
    const read = readGeminiRequest(body);
    expect(read.messages[0].parts).toEqual([{ type: "reasoning", text: "plan", signature: "s1" }]);
    expect(read.messages[0].extras).toEqual({ gemini: { signatures: { c: "s2" } } });
    expect(writeGeminiRequest(read).value).toEqual(body);
  });

  it("[F-G3] writes tool results and the next user words into one user turn", () => {
    const written = writeGeminiRequest({
      messages: [
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", content: "plain text", tool_call_id: "c" },
        { role: "user", content: "next" },
      ],
    });
    expect(written.value.contents).toEqual([
      { role: "model", parts: [{ functionCall: { id: "c", name: "f", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { id: "c", name: "f", response: { output: "plain text" } } }, { text: "next" }] },
    ]);
  });

  it("reads snake_case fields and a response's candidate", () => {
    const read = readGeminiRequest({
      system_instruction: { parts: [{ text: "s" }] },
      contents: [{ role: "user", parts: [{ inline_data: { mime_type: "image/png", data: "AAAA" } }] }],
    });
    expect(read.messages[1].parts).toEqual([{ type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } }]);
    expect(readGeminiResponse({ candidates: [{ content: { parts: [{ text: "hi" }] } }] }).messages).toEqual([{ role: "assistant", content: "hi" }]);
  });
});
