import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message, ToolDefinition } from "../messages";
import { answer, calls, result, system, toolCall, user } from "../test-support/conversation";
import { referenceEncode } from "../test-support/reference-tokenizer";
import { developmentChecks, setDevelopmentChecks } from "../checks";
import { sharedCounter, TiktokenCounter, TOKENS_PER_MESSAGE, TOKENS_PER_NAME, TOKENS_TO_PRIME_REPLY } from "./counter";

// openai/openai-cookbook, examples/How_to_count_tokens_with_tiktoken.ipynb
const COOKBOOK_MESSAGES: Message[] = [
  { role: "system", content: "You are a helpful, pattern-following assistant that translates corporate jargon into plain English." },
  { role: "system", name: "example_user", content: "New synergies will help drive top-line growth." },
  { role: "system", name: "example_assistant", content: "Things working well together will increase revenue." },
  { role: "system", name: "example_user", content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage." },
  { role: "system", name: "example_assistant", content: "Let's talk later when we're less busy about how to do better." },
  { role: "user", content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
];

const WEATHER_TOOLS: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "get_current_weather",
      description: "Get the current weather in a given location",
      parameters: {
        type: "object",
        properties: {
          location: { type: "string", description: "The city and state, e.g. San Francisco, CA" },
          unit: { type: "string", description: "The unit of temperature to return", enum: ["celsius", "fahrenheit"] },
        },
        required: ["location"],
      },
    },
  },
];

const WEATHER_MESSAGES: Message[] = [
  { role: "system", content: "You are a helpful assistant that can answer to questions about the weather." },
  { role: "user", content: "What's the weather like in San Francisco?" },
];

const cl100k = () => new TiktokenCounter({ encoding: "cl100k_base" });
const o200k = () => new TiktokenCounter({ encoding: "o200k_base" });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("TiktokenCounter.countMessages", () => {
  it("[E-T1] counts OpenAI's cookbook example as 129 tokens on cl100k_base", () => {
    expect(cl100k().countMessages(COOKBOOK_MESSAGES)).toBe(129);
  });

  it("[E-T1] counts OpenAI's cookbook example as 124 tokens on o200k_base", () => {
    expect(o200k().countMessages(COOKBOOK_MESSAGES)).toBe(124);
  });

  it("[E-T1] adds 3 to prime the reply, and nothing for an empty list", () => {
    const counter = cl100k();
    const history = [user("hello"), answer("hi")];
    expect(counter.countMessages([])).toBe(0);
    expect(counter.countMessages(history)).toBe(counter.countMessage(history[0]) + counter.countMessage(history[1]) + TOKENS_TO_PRIME_REPLY);
    expect(counter.countEach(history)).toEqual(history.map((message) => counter.countMessage(message)));
  });

  it("[E-T1] a message costs 3 plus its role, content and name (+1)", () => {
    const counter = cl100k();
    const text = (value: string) => referenceEncode("cl100k_base", value).length;
    expect(counter.countMessage(user("hello world"))).toBe(TOKENS_PER_MESSAGE + text("user") + text("hello world"));
    expect(counter.countMessage({ role: "system", name: "example_user", content: "hi" })).toBe(
      TOKENS_PER_MESSAGE + text("system") + text("hi") + TOKENS_PER_NAME + text("example_user"),
    );
    expect(counter.countMessage({ role: "assistant", content: null })).toBe(TOKENS_PER_MESSAGE + text("assistant"));
  });

  it("[E-T1] counts tool calls' names and arguments and a tool result's call id", () => {
    const counter = o200k();
    const text = (value: string) => referenceEncode("o200k_base", value).length;
    const args = JSON.stringify({ reservation_id: "ZFA04Y", reason: "change of plan" });
    const withCalls = calls(toolCall("call_0", "cancel_reservation", args), toolCall("call_1", "get_user_details", "{}"));
    expect(counter.countMessage(withCalls)).toBe(
      TOKENS_PER_MESSAGE + text("assistant") + text("cancel_reservation") + text(args) + text("get_user_details") + text("{}"),
    );
    const toolResult = result("call_0", "ok", "cancel_reservation");
    expect(counter.countMessage(toolResult)).toBe(
      TOKENS_PER_MESSAGE + text("tool") + text("ok") + text("call_0") + TOKENS_PER_NAME + text("cancel_reservation"),
    );
  });
});

describe("TiktokenCounter.countText", () => {
  it("[E-T2] counts <|endoftext|> and other special-token text as plain text, never throwing", () => {
    for (const counter of [cl100k(), o200k()]) {
      for (const text of ["<|endoftext|>", "before <|endoftext|> after", "<|fim_prefix|><|im_start|>user", "<|endofprompt|>"]) {
        expect(counter.countText(text)).toBe(referenceEncode(counter.encoding, text).length);
        expect(counter.countText(text)).toBeGreaterThan(1);
      }
    }
    expect(cl100k().countMessage(user("<|endoftext|>"))).toBeGreaterThan(TOKENS_PER_MESSAGE + 1);
  });

  it("[E-T2] counts nothing for empty, null or undefined text", () => {
    const counter = cl100k();
    expect(counter.countText("")).toBe(0);
    expect(counter.countText(null)).toBe(0);
    expect(counter.countText(undefined)).toBe(0);
    expect(counter.encode("")).toEqual([]);
  });

  it("[E-T5] encodes to js-tiktoken's token ids", () => {
    const text = "Hello, world! 你好 🌍 \r\n\tcafé";
    expect(cl100k().encode(text)).toEqual(referenceEncode("cl100k_base", text));
    expect(o200k().encode(text)).toEqual(referenceEncode("o200k_base", text));
  });
});

describe("TiktokenCounter.countTools", () => {
  it("[E-T3] the cookbook's weather example totals 105 tokens on cl100k_base", () => {
    const counter = cl100k();
    expect(counter.countMessages(WEATHER_MESSAGES) + counter.countTools(WEATHER_TOOLS)).toBe(105);
  });

  it("[E-T3] the cookbook's weather example totals 101 tokens on o200k_base", () => {
    const counter = o200k();
    expect(counter.countMessages(WEATHER_MESSAGES) + counter.countTools(WEATHER_TOOLS)).toBe(101);
  });

  it("[E-T3] follows num_tokens_for_tools: function start, properties, enums, end", () => {
    const text = (value: string) => referenceEncode("cl100k_base", value).length;
    const counter = cl100k();
    const bare: ToolDefinition = { type: "function", function: { name: "ping", description: "Ping the server." } };
    expect(counter.countTools([bare])).toBe(10 + text("ping:Ping the server") + 12);
    expect(o200k().countTools([bare])).toBe(7 + referenceEncode("o200k_base", "ping:Ping the server").length + 12);
    const withEnum: ToolDefinition = {
      type: "function",
      function: {
        name: "set_mode",
        description: "Set the mode",
        parameters: { type: "object", properties: { mode: { type: "string", description: "The mode.", enum: ["fast", "slow"] } } },
      },
    };
    expect(counter.countTools([withEnum])).toBe(
      10 + text("set_mode:Set the mode") + 3 + 3 + -3 + (3 + text("fast")) + (3 + text("slow")) + text("mode:string:The mode") + 12,
    );
    expect(counter.countTools([bare, withEnum])).toBe(counter.countTools([bare]) + counter.countTools([withEnum]) - 12);
  });

  it("[E-T3] no tools cost nothing", () => {
    expect(cl100k().countTools([])).toBe(0);
    expect(cl100k().countTools(undefined)).toBe(0);
  });
});

describe("TiktokenCounter construction", () => {
  it("[E-T4] picks the encoding from a model name", () => {
    expect(new TiktokenCounter({ model: "gpt-4o-mini" }).encoding).toBe("o200k_base");
    expect(new TiktokenCounter({ model: "gpt-4" }).encoding).toBe("cl100k_base");
    expect(new TiktokenCounter().encoding).toBe("cl100k_base");
  });

  it("shares one counter per encoding", () => {
    expect(sharedCounter("o200k_base")).toBe(sharedCounter("o200k_base"));
    expect(sharedCounter()).toBe(sharedCounter("cl100k_base"));
    expect(sharedCounter("o200k_base").encoding).toBe("o200k_base");
  });
});

describe("TiktokenCounter cache", () => {
  it("[E-T6] counting the same message object twice encodes it once", () => {
    const counter = cl100k();
    const spy = vi.spyOn(counter, "countText");
    const message = calls(toolCall("call_0", "search_flights", '{"origin":"JFK"}'));
    const first = counter.countMessage(message);
    const encodedFirst = spy.mock.calls.length;
    expect(encodedFirst).toBeGreaterThan(0);
    expect(counter.countMessage(message)).toBe(first);
    expect(spy.mock.calls.length).toBe(encodedFirst);
  });

  it("[E-T6] re-counting a history after one appended message encodes only that message", () => {
    const counter = o200k();
    const history = [system("policy"), user("q"), answer("a")];
    const total = counter.countMessages(history);
    const spy = vi.spyOn(counter, "countText");
    const appended = user("one more question");
    expect(counter.countMessages([...history, appended])).toBe(total + counter.countMessage({ ...appended }));
    const texts = spy.mock.calls.map(([text]) => text);
    expect(texts.filter((text) => text === "one more question")).toHaveLength(2);
    expect(texts).not.toContain("policy");
    expect(texts).not.toContain("a");
  });

  it("[E-T7] with development checks on (as in every test), a message edited in place after counting throws: its count cannot go stale", () => {
    expect(developmentChecks()).toBe(true);
    const counter = cl100k();
    const message = calls(toolCall("call_0", "search_flights", '{"origin":"JFK"}'));
    const before = counter.countMessage(message);
    expect(() => {
      message.content = "x ".repeat(100);
    }).toThrow(TypeError);
    expect(() => {
      message.tool_calls![0].function.arguments = "{}";
    }).toThrow(TypeError);
    expect(counter.countMessage(message)).toBe(before);
    // An edited copy is a new message, counted afresh.
    expect(counter.countMessage({ ...message, content: "x ".repeat(100) })).toBe(before + counter.countText("x ".repeat(100)));
  });

  it("[E-T7] with development checks off, counting leaves the caller's messages as they were", () => {
    setDevelopmentChecks(false);
    try {
      const message = user("hello");
      cl100k().countMessage(message);
      expect(Object.isFrozen(message)).toBe(false);
    } finally {
      setDevelopmentChecks(true);
    }
  });

  it("[E-T6] an equal but different message object is counted afresh", () => {
    const counter = cl100k();
    counter.countMessage(user("same"));
    const spy = vi.spyOn(counter, "countText");
    counter.countMessage(user("same"));
    expect(spy).toHaveBeenCalled();
  });
});
