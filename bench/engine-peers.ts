// The peers a user would pick instead of the engine's pipeline, each fed the same
// conversation in its own message format, converted once before timing.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { TokenLimiter } from "@mastra/memory/processors";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { sharedCounter, type Message } from "@/lib/context";

/** One way to cut a history to a budget: `run` is timed; `append` turns the input into the one with a message appended. */
export interface Peer {
  name: string;
  run(history: readonly Message[]): Promise<number> | number;
}

type CoreMessage = Parameters<TokenLimiter["process"]>[0][number];

const coreMessages = new WeakMap<Message, CoreMessage>();

/** AI SDK core messages (what Mastra's memory processors take), made once per message. */
function toCore(message: Message): CoreMessage {
  let core = coreMessages.get(message);
  if (core) return core;
  if (message.role === "tool") {
    core = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: message.tool_call_id ?? "", toolName: message.name ?? "tool", result: message.content ?? "" }],
    };
  } else if (message.role === "assistant" && message.tool_calls?.length) {
    core = {
      role: "assistant",
      content: [
        ...(message.content ? [{ type: "text" as const, text: message.content }] : []),
        ...message.tool_calls.map((call) => ({
          type: "tool-call" as const,
          toolCallId: call.id,
          toolName: call.function.name,
          args: JSON.parse(call.function.arguments || "{}") as unknown,
        })),
      ],
    } as CoreMessage;
  } else {
    core = { role: message.role, content: message.content ?? "" } as CoreMessage;
  }
  coreMessages.set(message, core);
  return core;
}

const langchainMessages = new WeakMap<Message, BaseMessage>();

function toLangChain(message: Message): BaseMessage {
  let converted = langchainMessages.get(message);
  if (converted) return converted;
  const content = message.content ?? "";
  if (message.role === "system") converted = new SystemMessage(content);
  else if (message.role === "user") converted = new HumanMessage(content);
  else if (message.role === "tool") converted = new ToolMessage({ content, tool_call_id: message.tool_call_id ?? "" });
  else
    converted = new AIMessage({
      content,
      tool_calls: (message.tool_calls ?? []).map((call) => ({
        id: call.id,
        name: call.function.name,
        args: JSON.parse(call.function.arguments || "{}") as Record<string, unknown>,
      })),
    });
  langchainMessages.set(message, converted);
  return converted;
}

/** Mastra's memory `TokenLimiter`: counts back from the newest message, js-tiktoken per message, no cache. */
export function mastraTokenLimiter(budget: number): Peer {
  const limiter = new TokenLimiter({ limit: budget, encoding: cl100k });
  return { name: "Mastra `TokenLimiter` (@mastra/memory)", run: (history) => limiter.process(history.map(toCore)).length };
}

/** LangChain.js `trimMessages`, strategy "last", with an exact counter cached per message object. */
export function langchainTrim(budget: number): Peer {
  const counter = sharedCounter("cl100k_base");
  const counts = new WeakMap<BaseMessage, number>();
  const tokenCounter = (messages: BaseMessage[]) => {
    let total = 0;
    for (const message of messages) {
      let count = counts.get(message);
      if (count === undefined) {
        count = counter.countText(typeof message.content === "string" ? message.content : JSON.stringify(message.content)) + 3;
        counts.set(message, count);
      }
      total += count;
    }
    return total;
  };
  return {
    name: "LangChain.js `trimMessages`, cached exact counter",
    run: async (history) =>
      (await trimMessages(history.map(toLangChain), { maxTokens: budget, strategy: "last", tokenCounter, includeSystem: true, startOn: "human" })).length,
  };
}

/** The floor: counts cached in an Int32Array by the caller, one backward walk to the cut, one slice. */
export function floor(budget: number): Peer & { counts: WeakMap<readonly Message[], Int32Array> } {
  const counter = sharedCounter("cl100k_base");
  const counts = new WeakMap<readonly Message[], Int32Array>();
  return {
    name: "floor: cached counts in an Int32Array, one cut",
    counts,
    run: (history) => {
      let cached = counts.get(history);
      if (!cached) {
        cached = new Int32Array(history.length);
        for (let position = 0; position < history.length; position += 1) cached[position] = counter.countMessage(history[position]);
        counts.set(history, cached);
      }
      let total = 3;
      let cut = history.length;
      while (cut > 1 && total + cached[cut - 1] <= budget) total += cached[--cut];
      return history.slice(cut).length;
    },
  };
}
