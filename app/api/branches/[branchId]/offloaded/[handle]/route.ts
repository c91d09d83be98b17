import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { reloadOffloadedContent } from "@/lib/memory";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// What reload_offloaded gives the agent: the exact content, as the branch sees it.
export const GET = route<{ branchId: string; handle: string }>(async (_request, { branchId, handle }) => {
  return json({ offloaded: await reloadOffloadedContent(database(), branchId, handle) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
