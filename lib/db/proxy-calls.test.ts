import { describe, expect, it, vi } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { NotFoundError } from "./errors";
import { journalWriterOf } from "./journal-writer";
import { createProxyCall, endProxyCallById, getUnplacedProxyCalls } from "./proxy-calls";
import { newRowId } from "./run";

const request = { model: "fake-gpt", messages: [{ role: "user", content: "héllo ✓" }], stream: true };

describe("journal ids", () => {
  it("[PX-D5] sort in the order the calls were journaled, also within one millisecond", () => {
    const ids = Array.from({ length: 2_000 }, () => newRowId("c"));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe.each(TEST_PROVIDERS)("the proxy's journal (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[PX-D5] [DB-J1] journals a call's request and outcome in one statement each on the driver, and reads them back as written", async () => {
    await test.db.proxyCall.count(); // connects the client, whose driver the journal writer uses
    const writer = journalWriterOf(test.db)!;
    const batches = writer.batches;
    const prisma = vi.spyOn(test.db, "$executeRawUnsafe");
    const details = { messages: request.messages, tools: null, sentMessages: null, pipeline: null };
    const started = await createProxyCall(test.db, { key: "agent-1", request, details, streamed: true });
    expect(await getUnplacedProxyCalls(test.db)).toEqual([started]);
    expect(started).toMatchObject({ key: "agent-1", request, sent: null, details, streamed: true, response: null, status: null, endedAt: null });

    const response = { choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }] };
    await endProxyCallById(test.db, started.id, { response, status: 200, error: null, durationMs: 12.6, outcome: { reloads: null } });
    const [ended] = await getUnplacedProxyCalls(test.db);
    expect(ended).toMatchObject({ ...started, response, status: 200, error: null, durationMs: 13, outcome: { reloads: null }, endedAt: expect.any(String) });
    expect(Date.parse(ended.endedAt!)).toBeGreaterThanOrEqual(Date.parse(started.createdAt));
    expect(writer.batches - batches).toBe(2);
    expect(prisma).not.toHaveBeenCalled();

    await expect(endProxyCallById(test.db, "no-such-call", { response: null, status: 500, error: null, durationMs: 1 })).rejects.toSatisfy((error) =>
      NotFoundError.isInstance(error),
    );
    prisma.mockRestore();
  });
});
