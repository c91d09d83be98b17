import { database } from "@/lib/api/database";
import { describeError, RETRY_AFTER_SECONDS } from "@/lib/api/errors";
import { json, route, otherMethods } from "@/lib/api/http";
import { describeDatabase, getConversations } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const db = database();
  const { provider } = describeDatabase(db);
  try {
    // A real read of a real table: an unmigrated database is as unavailable as an unreachable one.
    await getConversations(db, { limit: 1 });
    return json({ ok: true, database: provider });
  } catch (error) {
    const { status, body } = describeError(error);
    const response = json({ ok: false, database: provider, ...body }, status);
    if (status === 503) response.headers.set("retry-after", String(RETRY_AFTER_SECONDS));
    return response;
  }
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
