import { otherMethods } from "@/lib/api/http";
import { ALL_CONVERSATIONS, liveEventResponse, ensureSharedLive } from "@/lib/live";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every conversation's live events, for the conversation list. */
export function GET(request: Request): Response {
  ensureSharedLive();
  return liveEventResponse(request, ALL_CONVERSATIONS);
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
