import { anthropicMessages } from "./anthropic";
import { openAIChat } from "./openai-chat";
import { openAIResponses } from "./openai-responses";
import type { Protocol } from "./types";

/** The recorded protocols by name, for reading a journaled request again after a restart (PX-C1). */
const PROTOCOLS: ReadonlyMap<string, Protocol> = new Map([openAIChat, openAIResponses, anthropicMessages].map((protocol) => [protocol.name, protocol]));

export function protocolNamed(name: string): Protocol | null {
  return PROTOCOLS.get(name) ?? null;
}
