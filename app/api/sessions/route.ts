import { database } from "@/lib/api/database";
import { json, otherMethods, route } from "@/lib/api/http";
import { readSessionFile } from "@/lib/api/session-file";
import { importSession } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Imports a session file as `GET /api/sessions/[conversationId]` writes it (read as it streams in), or one of
 * version 1: every row as exported, all or nothing; refused when a reference points outside the file or the
 * conversation is already stored.
 */
export const POST = route(async (request) => json(await importSession(database(), await readSessionFile(request)), 201));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
