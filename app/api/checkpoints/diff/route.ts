import { database } from "@/lib/api/database";
import { diffValues } from "@/lib/api/diff";
import { json, readQuery, route, otherMethods } from "@/lib/api/http";
import { getCheckpointById, type CheckpointRecord } from "@/lib/db";
import { checkpointDiffQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function header({ values: _values, ...rest }: CheckpointRecord) {
  return rest;
}

export const GET = route(async (request) => {
  const query = readQuery(request, checkpointDiffQuerySchema);
  const db = database();
  const from = await getCheckpointById(db, query.from);
  const to = await getCheckpointById(db, query.to);
  return json({ from: header(from), to: header(to), diff: diffValues(from.values, to.values) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
