import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getCallDetailById } from "@/lib/calls";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ callId: string }>(async (_request, { callId }) => {
  return json(await getCallDetailById(database(), callId));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
