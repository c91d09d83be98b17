import type { Message } from "@/lib/context/messages";
import type { Database } from "@/lib/db/client";
import { createConversation, type CreateConversationResult } from "@/lib/db/conversations";
import type { NewMessage } from "@/lib/db/messages";

/** A message to store, with a token count good enough for storage tests. */
export function turn(message: Message, metadata?: NewMessage["metadata"]): NewMessage {
  return { message, tokens: Math.ceil((message.content ?? "").length / 4) + 3, metadata };
}

export const user = (content: string): NewMessage => turn({ role: "user", content });
export const assistant = (content: string): NewMessage => turn({ role: "assistant", content });

/** `count` alternating user/assistant turns whose content names their position: "u0", "a1", "u2", ... */
export function dialogue(count: number, from = 0): NewMessage[] {
  return Array.from({ length: count }, (_, index) => {
    const position = from + index;
    return position % 2 === 0 ? user(`u${position}`) : assistant(`a${position}`);
  });
}

/** A conversation whose root branch holds `count` dialogue messages. */
export function seedConversation(db: Database, count: number, title = "seeded"): Promise<CreateConversationResult> {
  return createConversation(db, { title, source: "import:openai", messages: dialogue(count) });
}
