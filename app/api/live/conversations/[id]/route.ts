import { liveEventResponse } from "@/lib/live";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One conversation's live events (EventSource): conversation-updated, branch-created, exchange-started, exchange-recorded. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await context.params;
  return liveEventResponse(request, id);
}
