import { updateConversationFromRequest } from "@/lib/api/conversations";
import { database } from "@/lib/api/database";
import { json, noContent, readJsonBody, route, otherMethods } from "@/lib/api/http";
import { deleteConversationById, getBranchTreeByConversationId, getConversationById } from "@/lib/db";
import { updateConversationSchema } from "./schema";
import { forgetConversation } from "@/lib/proxy/placement";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) => {
  const db = database();
  const conversation = await getConversationById(db, id);
  const branches = await getBranchTreeByConversationId(db, id);
  return json({ conversation, branches });
});

export const PATCH = route<Params>(async (request, { id }) => {
  const changes = await readJsonBody(request, updateConversationSchema);
  const conversation = await updateConversationFromRequest(database(), id, changes);
  return json({ conversation });
});

export const DELETE = route<Params>(async (_request, { id }) => {
  const db = database();
  await deleteConversationById(db, id);
  // The proxy's cache of its branches' fingerprints goes with it.
  forgetConversation(db, id);
  return noContent();
});

export const { POST, PUT, OPTIONS } = otherMethods("GET", "PATCH", "DELETE");
