import { database } from "@/lib/api/database";
import { json, readJsonBody, readQuery, route } from "@/lib/api/http";
import { assemblePrompt } from "@/lib/memory";
import { assemblePromptSchema, promptQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

// A preview: GET never compacts, so it never writes.
export const GET = route<Params>(async (request, { branchId }) => {
  const { userTurn } = readQuery(request, promptQuerySchema);
  return json(await assemblePrompt(database(), branchId, { userTurn, compact: false }));
});

export const POST = route<Params>(async (request, { branchId }) => {
  const { userTurn, settings, tools, compact } = await readJsonBody(request, assemblePromptSchema);
  return json(await assemblePrompt(database(), branchId, { userTurn, settings, tools, compact }));
});
