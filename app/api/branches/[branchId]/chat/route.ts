import { readJsonBody, route, otherMethods } from "@/lib/api/http";
import { answerChatRequest } from "@/lib/chat";
import { chatRequestSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

/** The chat recorder: records the turn, asks the configured upstream, streams and records its reply (lib/chat/README.md). */
export const POST = route<Params>(async (request, { branchId }) => {
  const input = await readJsonBody(request, chatRequestSchema);
  return answerChatRequest(request, branchId, input);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
