import { database } from "@/lib/api/database";
import { MAX_IMPORT_BODY_BYTES, json, readBodyText, readQuery, route, otherMethods } from "@/lib/api/http";
import { importConversations } from "@/lib/api/import";
import type { ImportFormat } from "@/lib/import";
import { importQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The body is the pasted or dropped text as it is (JSON or JSONL); the request guard admits it as application/json or application/x-ndjson.
export const POST = route(async (request) => {
  const query = readQuery(request, importQuerySchema);
  const text = await readBodyText(request, MAX_IMPORT_BODY_BYTES, "import");
  const result = await importConversations(database(), text, {
    filename: query.filename,
    format: query.format as ImportFormat | "auto" | undefined,
    title: query.title,
    conversation: query.conversation,
  });
  return json(result, 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
