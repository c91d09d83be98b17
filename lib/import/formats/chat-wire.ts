/**
 * Formats whose messages map field for field onto OpenAI chat messages
 * (LangChain, ShareGPT, OpenTelemetry GenAI) are rewritten as chat messages and
 * read by lib/formats' chat reader, each remembering where it came from.
 */
import type { Message } from "@/lib/context/messages";
import { readChatMessage } from "@/lib/formats";
import type { JsonPath, MessageScope } from "../issues";
import { readMapped } from "../requests";

/** A chat message built from the source at `source`. */
export interface ChatWireMessage {
  message: Record<string, unknown>;
  source: JsonPath;
}

export function readChatWire(scope: MessageScope, wire: readonly ChatWireMessage[]): Message[] {
  return readMapped(
    scope,
    "openai-chat",
    wire.map((entry) => entry.source),
    (conversion) => wire.flatMap((entry, index) => readChatMessage(entry.message, conversion.child([index])) ?? []),
  );
}
