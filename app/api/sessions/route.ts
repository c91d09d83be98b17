import { HttpError, validationError } from "@/lib/api/errors";
import { database } from "@/lib/api/database";
import { json, MAX_IMPORT_BODY_BYTES, otherMethods, parseJsonText, readBodyText, route } from "@/lib/api/http";
import { importSession } from "@/lib/db";
import { findSessionIssues } from "@/lib/session/schema";
import { importSessionSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports a session file: every row as exported, all or nothing; refused when a reference points outside the file or the conversation is already stored. */
export const POST = route(async (request) => {
  const text = await readBodyText(request, MAX_IMPORT_BODY_BYTES, "session file");
  const parsed = importSessionSchema.safeParse(parseJsonText(text, "session file"));
  if (!parsed.success) throw validationError(parsed.error, "invalid session file");
  const issues = findSessionIssues(parsed.data);
  if (issues.length > 0)
    throw new HttpError(400, "invalid_request", `invalid session file: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`, { issues });
  return json(await importSession(database(), parsed.data), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
