import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getBranchTreeByConversationId } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) => {
  return json({ branches: await getBranchTreeByConversationId(database(), id) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
