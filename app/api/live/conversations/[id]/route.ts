import { database } from "@/lib/api/database";
import { otherMethods, route } from "@/lib/api/http";
import { getConversationById } from "@/lib/db";
import { liveEventResponse, ensureSharedLive } from "@/lib/live";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One conversation's live events (EventSource): conversation-updated, branch-created, exchange-started, exchange-recorded. */
export const GET = route<{ id: string }>(async (request, { id }) => {
  // An unknown id answers 404 rather than an event stream that never says anything.
  await getConversationById(database(), id);
  // LV-6: the stream opens once the other instances' events reach this one, so a tab's read after `open` misses none (LV-LC1).
  await ensureSharedLive();
  return liveEventResponse(request, id);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
