import { database } from "@/lib/api/database";
import { json, otherMethods, readJsonBody, readQuery, route } from "@/lib/api/http";
import { prepareNextRequest, promptResponse } from "@/lib/request/server";
import { assemblePromptSchema, promptQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

const turn = (userTurn: string | undefined) => (userTurn === undefined || userTurn === "" ? null : { role: "user" as const, content: userTurn });

// A preview: GET never compacts, so it never writes.
export const GET = route<Params>(async (request, { branchId }) => {
  const { userTurn } = readQuery(request, promptQuerySchema);
  return json(promptResponse(await prepareNextRequest(database(), branchId, { current: turn(userTurn) })));
});

export const POST = route<Params>(async (request, { branchId }) => {
  const { userTurn, settings, tools, compact } = await readJsonBody(request, assemblePromptSchema);
  return json(promptResponse(await prepareNextRequest(database(), branchId, { current: turn(userTurn), settings, tools, compact: compact !== false })));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
