import "server-only";
import { database } from "@/lib/api/database";
import { otherMethods, route } from "@/lib/api/http";
import { getConversationById } from "@/lib/db";
import { ALL_CONVERSATIONS } from "./bus";
import { ensureSharedLive } from "./shared";
import { liveEventResponse } from "./sse";

/** Every conversation's live events, for the conversation list. */
export async function streamAllConversations(request: Request): Promise<Response> {
  void ensureSharedLive();
  return liveEventResponse(request, ALL_CONVERSATIONS);
}

/** One conversation's live events (EventSource): conversation-updated, branch-created, exchange-started, exchange-recorded. */
export const streamConversation = route<{ id: string }>(async (request, { id }) => {
  // An unknown id answers 404 rather than an event stream that never says anything.
  await getConversationById(database(), id);
  // LV-6: the stream opens once the other instances' events reach this one, so a tab's read after `open` misses none (LV-LC1).
  await ensureSharedLive();
  return liveEventResponse(request, id);
});

/** What a live stream's path answers to any method but GET (405, and OPTIONS naming GET). */
export const LIVE_OTHER_METHODS = otherMethods("GET");
