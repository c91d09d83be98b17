import { database } from "@/lib/api/database";
import { json, otherMethods, readJsonBody, route } from "@/lib/api/http";
import { comparePoliciesWithinLimits, requireReplayableLength } from "@/lib/api/replay";
import { getBranchScope, getConversationById, getHistoryByBranchId } from "@/lib/db";
import { findModel } from "@/lib/models";
import { loadCatalogue } from "@/lib/models/server";
import { replayBodySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

/** Replays the stored branch under raw and the given policies, with the engine the playground's worker runs (E-RP1–E-RP9), within its limits (IN-8). Writes nothing. */
export const POST = route<Params>(async (request, { branchId }) => {
  const body = await readJsonBody(request, replayBodySchema);
  const db = database();
  const scope = await getBranchScope(db, branchId, { conversation: true });
  const keepMessages = body.keepMessages ?? false;
  requireReplayableLength(scope.branch.length, keepMessages);
  const conversation = scope.conversation ?? (await getConversationById(db, scope.branch.conversationId));
  const messages = (await getHistoryByBranchId(db, scope)).map((record) => record.message);
  const prices = body.prices === undefined ? (findModel(body.policies[0].policy.model, await loadCatalogue(db)).entry.prices ?? null) : body.prices;
  const compared = await comparePoliciesWithinLimits(
    { messages, tools: body.tools ?? conversation.tools ?? [], policies: body.policies, prices, keepMessages },
    request.signal,
  );
  return json({ branchId: scope.branch.id, messages: messages.length, prices, ...compared });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
