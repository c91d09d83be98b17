import { describe, expect, it } from "vitest";
import { writeChatMessages } from "@/lib/formats";
import { messageFingerprint, readChatCompletionRequest, readChatReply } from "./canonical";
import { ProxyRequestError } from "./errors";

const read = (messages: unknown[], extra: Record<string, unknown> = {}) => readChatCompletionRequest({ model: "m", messages, ...extra });
const fingerprint = (raw: unknown) => messageFingerprint(read([raw]).messages[0]);

function refusalOf(body: unknown): ProxyRequestError {
  try {
    readChatCompletionRequest(body);
  } catch (error) {
    if (ProxyRequestError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("the body was read");
}

describe("readChatCompletionRequest (lib/formats' OpenAI Chat reader)", () => {
  it("keeps plain messages as they are", () => {
    const call = { id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } };
    const { messages } = read([
      { role: "user", content: "hi", name: "ana" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", content: "42", tool_call_id: "call_1" },
    ]);
    expect(messages).toEqual([
      { role: "user", content: "hi", name: "ana" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", content: "42", tool_call_id: "call_1" },
    ]);
  });

  it("[PX-P5] keeps content parts and the developer role, so the agent's message is written back as it came", () => {
    const raw = [
      { role: "developer", content: "rules" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ];
    const { messages } = read(raw);
    expect(messages[0]).toMatchObject({ role: "system", content: "rules" });
    expect(writeChatMessages(messages).value).toEqual(raw);
  });

  it("[PX-P5] gives a legacy function_call and its function result the same id, and reads functions as tools", () => {
    const { messages, tools } = read(
      [
        { role: "user", content: "weather?" },
        { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        { role: "function", name: "get_weather", content: "rain" },
      ],
      { functions: [{ name: "get_weather", parameters: { type: "object", properties: {} } }] },
    );
    const callId = messages[1].tool_calls?.[0].id;
    expect(callId).toBeTruthy();
    expect(messages[2]).toMatchObject({ role: "tool", tool_call_id: callId, content: "rain" });
    expect(tools?.map((tool) => tool.function.name)).toEqual(["get_weather"]);
  });

  it("names the message and field it cannot read", () => {
    expect(
      refusalOf({
        model: "m",
        messages: [
          { role: "user", content: "a" },
          { role: "robot", content: "b" },
        ],
      }).param,
    ).toBe("messages[1].role");
    expect(refusalOf({ model: "m", messages: [{ role: "tool", content: "x" }] }).param).toBe("messages[0].tool_call_id");
    expect(refusalOf({ model: "m" }).param).toBe("messages");
    expect(refusalOf([1, 2]).message).toMatch(/JSON object/);
  });
});

describe("readChatReply", () => {
  it("reads a completion's message, and gives null for one that is not a message", () => {
    const call = { id: "c", type: "function", function: { name: "f", arguments: "{}" } };
    expect(readChatReply({ role: "assistant", content: null, tool_calls: [call] })).toEqual({ role: "assistant", content: null, tool_calls: [call] });
    expect(readChatReply({ content: 7 })).toBeNull();
  });
});

describe("messageFingerprint (F-4)", () => {
  it("is the same for one text part and the same text as a string", () => {
    expect(fingerprint({ role: "user", content: [{ type: "text", text: "hi" }] })).toBe(fingerprint({ role: "user", content: "hi" }));
  });

  it("treats null, absent and empty assistant content alike", () => {
    const call = { id: "c1", type: "function", function: { name: "f", arguments: "{}" } };
    const prints = [
      fingerprint({ role: "assistant", content: null, tool_calls: [call] }),
      fingerprint({ role: "assistant", tool_calls: [call] }),
      fingerprint({ role: "assistant", content: "", tool_calls: [call] }),
    ];
    expect(new Set(prints).size).toBe(1);
  });

  it("compares tool arguments as JSON: spacing and key order do not matter, values do", () => {
    const withArguments = (text: string) =>
      fingerprint({ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: text } }] });
    expect(withArguments('{"a": 1, "b": [1, 2]}')).toBe(withArguments('{"b":[1,2],"a":1}'));
    expect(withArguments('{"a":1}')).not.toBe(withArguments('{"a":2}'));
  });
});
