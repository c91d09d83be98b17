import { createConversationFromRequest } from "@/lib/api/conversations";
import { database } from "@/lib/api/database";
import { json, readJsonBody, readQuery, route, otherMethods } from "@/lib/api/http";
import { getConversations } from "@/lib/db";
import { createConversationSchema, listConversationsQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  const { limit, offset } = readQuery(request, listConversationsQuerySchema);
  const conversations = await getConversations(database(), { limit, offset });
  return json({ conversations, limit, offset });
});

export const POST = route(async (request) => {
  const body = await readJsonBody(request, createConversationSchema);
  const { conversation, branch, messages } = await createConversationFromRequest(database(), body);
  return json({ conversation, branch, messages }, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
