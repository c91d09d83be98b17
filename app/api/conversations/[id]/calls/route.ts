import { database } from "@/lib/api/database";
import { json, readQuery, route, otherMethods } from "@/lib/api/http";
import { listCallsByConversationId } from "@/lib/calls";
import { callsQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (request, { id }) => {
  const { after, limit, failed } = readQuery(request, callsQuerySchema);
  return json(await listCallsByConversationId(database(), id, { after, limit, failedOnly: failed === "true" }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
