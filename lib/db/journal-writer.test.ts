import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { ConflictError, NotFoundError } from "./errors";
import { journalWriterOf } from "./journal-writer";
import { createProxyCall, endJournaledCall, endProxyCallById, getUnplacedProxyCalls, newProxyCallId, removePlacedProxyCall } from "./proxy-calls";

describe.each(TEST_PROVIDERS)("the journal writer (%s)", (provider) => {
  const test = useTestDatabase(provider);

  /** The writer of a connected client (a SQLite client connects on its first query). */
  const writer = async () => {
    await test.db.proxyCall.count();
    const found = journalWriterOf(test.db);
    if (!found) throw new Error("no journal writer for a client made by createDatabase");
    return found;
  };

  it("[DB-J1] writes the calls that arrive together in one batch, each whole", async () => {
    const journal = await writer();
    const before = journal.batches;
    const calls = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        createProxyCall(test.db, {
          key: `agent-${index % 3}`,
          request: { model: "m", messages: [{ role: "user", content: `question ${index}` }] },
          streamed: index % 2 === 0,
        }),
      ),
    );
    expect(journal.batches - before).toBeLessThanOrEqual(2);
    await Promise.all(
      calls.map((call, index) =>
        endProxyCallById(test.db, call.id, { response: { answer: index }, status: 200, error: null, durationMs: 12.4, outcome: { n: index } }),
      ),
    );
    await removePlacedProxyCall(test.db, calls[0]!.id);
    const stored = await getUnplacedProxyCalls(test.db, { limit: 100 });
    expect(stored).toHaveLength(29);
    const byId = new Map(stored.map((row) => [row.id, row]));
    for (const [index, call] of calls.entries()) {
      if (index === 0) {
        expect(byId.has(call.id)).toBe(false);
        continue;
      }
      const row = byId.get(call.id)!;
      expect(row.key).toBe(`agent-${index % 3}`);
      expect(row.request).toEqual({ model: "m", messages: [{ role: "user", content: `question ${index}` }] });
      expect(row.streamed).toBe(index % 2 === 0);
      expect(row.response).toEqual({ answer: index });
      expect(row.status).toBe(200);
      expect(row.durationMs).toBe(12);
      expect(row.outcome).toEqual({ n: index });
      expect(Number.isNaN(Date.parse(row.createdAt))).toBe(false);
      expect(Date.parse(row.endedAt!)).toBeGreaterThanOrEqual(Date.parse(row.createdAt));
    }
  });

  it("[DB-J1] an outcome queued behind its request's INSERT goes out in the INSERT's batch, both written", async () => {
    const journal = await writer();
    const before = journal.batches;
    const id = newProxyCallId();
    const written = createProxyCall(test.db, { id, key: "agent-fast", request: { model: "m", messages: [{ role: "user", content: "quick" }] } });
    // The answer came before the INSERT went out: the UPDATE does not wait for its commit.
    await endJournaledCall(test.db, { id, written }, { response: { answer: 1 }, status: 200, error: null, durationMs: 3 });
    expect(journal.batches - before).toBe(1);
    expect((await written).id).toBe(id);
    const [row] = await getUnplacedProxyCalls(test.db, { limit: 10 });
    expect(row).toMatchObject({ id, key: "agent-fast", status: 200, response: { answer: 1 } });
    expect(row!.endedAt).not.toBeNull();
  });

  it("[DB-J1] when the request's INSERT fails, ending the call reports that failure, not a missing row", async () => {
    await writer();
    const id = newProxyCallId();
    await createProxyCall(test.db, { id, key: "agent-a", request: { model: "m", messages: [] } });
    const again = createProxyCall(test.db, { id, key: "agent-b", request: { model: "m", messages: [] } });
    const ended = endJournaledCall(test.db, { id, written: again }, { response: null, status: 200, error: null, durationMs: 1 });
    await expect(again).rejects.toSatisfy((error) => ConflictError.isInstance(error));
    await expect(ended).rejects.toSatisfy((error) => ConflictError.isInstance(error));
  });

  it("[DB-J1] a row the database refuses fails alone; the rest of its batch is written", async () => {
    const journal = await writer();
    const now = new Date();
    const row = (id: string, key: string | null) => ({ id, key, request: "{}", streamed: false, createdAt: now });
    const results = await Promise.allSettled([
      journal.insert("ProxyCall", row("c-one", "a")),
      journal.insert("ProxyCall", row("c-bad", null)),
      journal.insert("ProxyCall", row("c-two", "b")),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((await getUnplacedProxyCalls(test.db)).map((call) => call.id).sort()).toEqual(["c-one", "c-two"]);
  });

  it("[DB-J1] ending a call the journal does not hold is a NotFoundError", async () => {
    await writer();
    await expect(endProxyCallById(test.db, "c-missing", { response: null, status: 200, error: null, durationMs: 1 })).rejects.toSatisfy(
      NotFoundError.isInstance,
    );
  });
});
