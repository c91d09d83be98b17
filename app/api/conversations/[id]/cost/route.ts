import { database } from "@/lib/api/database";
import { json, otherMethods, readQuery, route } from "@/lib/api/http";
import { getConversationCost } from "@/lib/cost/server";
import { costQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every API call of the conversation (its subagents' too unless `?subagents=false`), priced, with the cache model's prediction and why the cache broke. */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { subagents } = readQuery(request, costQuerySchema);
  // Pricing a long session takes a while: it stops if the client goes away (CC-14).
  return json(await getConversationCost(database(), id, { subagents: subagents !== "false", signal: request.signal }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
