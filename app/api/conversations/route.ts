import { createConversationFromRequest } from "@/lib/api/conversations";
import { database } from "@/lib/api/database";
import { json, readJsonBody, readQuery, route, otherMethods } from "@/lib/api/http";
import { getConversationPage } from "@/lib/db";
import { createConversationSchema, listConversationsQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  const query = readQuery(request, listConversationsQuerySchema);
  const { conversations, total } = await getConversationPage(database(), query);
  const next = query.offset + conversations.length < total ? query.offset + conversations.length : null;
  return json({ conversations, total, limit: query.limit, offset: query.offset, next });
});

export const POST = route(async (request) => {
  const body = await readJsonBody(request, createConversationSchema);
  const { conversation, branch, messages } = await createConversationFromRequest(database(), body);
  return json({ conversation, branch, messages }, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
