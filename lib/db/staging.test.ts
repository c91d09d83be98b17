import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { createConversation } from "./conversations";
import { ConflictError } from "./errors";
import {
  beginStaging,
  deleteAbandonedStagedConversations,
  deleteStagedConversations,
  publishStagedConversations,
  STAGING_SOURCE_PREFIX,
  stagingLeaseMs,
} from "./staging";

// Long enough that a loaded machine does not outlive it between two statements of a test; the expiry cases pass their clock.
const LEASE_MS = 2_000;

async function sourcesOf(db: ReturnType<typeof useTestDatabase>["db"]): Promise<string[]> {
  return (await db.conversation.findMany({ orderBy: { title: "asc" }, select: { source: true } })).map((row) => row.source);
}

describe.each(TEST_PROVIDERS)("staging leases (%s)", (provider) => {
  const test = useTestDatabase(provider);
  let configured: string | undefined;

  beforeEach(() => {
    configured = process.env.CONTEXT_LAB_STAGING_LEASE_MS;
    process.env.CONTEXT_LAB_STAGING_LEASE_MS = String(LEASE_MS);
  });
  afterEach(() => {
    if (configured === undefined) delete process.env.CONTEXT_LAB_STAGING_LEASE_MS;
    else process.env.CONTEXT_LAB_STAGING_LEASE_MS = configured;
  });

  it("[IN-1] the lease comes from CONTEXT_LAB_STAGING_LEASE_MS, else two minutes", () => {
    expect(stagingLeaseMs()).toBe(LEASE_MS);
    process.env.CONTEXT_LAB_STAGING_LEASE_MS = "soon";
    expect(stagingLeaseMs()).toBe(120_000);
  });

  it("[IN-1] a clean-up keeps what another process is staging and deletes only what outlived its lease", async () => {
    // Another process's import in flight: staged a moment ago, unknown to this process.
    const foreign = `${STAGING_SOURCE_PREFIX}other-process`;
    const inFlight = await createConversation(test.db, { title: "a in flight elsewhere", source: foreign });
    const stagedAt = (await test.db.conversation.findUniqueOrThrow({ where: { id: inFlight.conversation.id } })).updatedAt.getTime();
    const crashed = await createConversation(test.db, { title: "b crashed", source: `${STAGING_SOURCE_PREFIX}crashed` });
    await test.db.conversation.update({ where: { id: crashed.conversation.id }, data: { updatedAt: new Date(stagedAt - LEASE_MS - 1) } });
    await createConversation(test.db, { title: "c published", source: "api" });

    // A clean-up as the other process's write was staged: the crashed one outlived its lease, the other did not.
    expect(await deleteAbandonedStagedConversations(test.db, new Date(stagedAt))).toBe(1);
    expect(await sourcesOf(test.db)).toEqual([foreign, "api"]);
    // Once the other process stops renewing it, its leftovers go too.
    expect(await deleteAbandonedStagedConversations(test.db, new Date(stagedAt + LEASE_MS + 1))).toBe(1);
    expect(await sourcesOf(test.db)).toEqual(["api"]);
  });

  it("[IN-1] a running staging renews its lease, so a clean-up long after its last write leaves it alone", async () => {
    const staging = beginStaging(test.db);
    try {
      const { conversation } = await createConversation(test.db, { title: "slow import", source: staging.source });
      const lastWrite = Date.now() - 10 * LEASE_MS;
      await test.db.conversation.update({ where: { id: conversation.id }, data: { updatedAt: new Date(lastWrite) } });
      const renewed = async () => (await test.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).updatedAt.getTime();
      await expect.poll(renewed, { timeout: 5_000 }).toBeGreaterThan(lastWrite);
      // A clean-up at the moment of the renewal seen, long after the last write: the renewal keeps it (later ones only add).
      expect(await deleteAbandonedStagedConversations(test.db, new Date(await renewed()))).toBe(0);
      await publishStagedConversations(test.db, staging.source, [{ id: conversation.id, source: "import:jsonl" }]);
      expect(await sourcesOf(test.db)).toEqual(["import:jsonl"]);
    } finally {
      staging.end();
    }
  });

  it("[IN-1] a failed write deletes only its own staged conversations", async () => {
    const mine = beginStaging(test.db);
    const theirs = beginStaging(test.db);
    try {
      await createConversation(test.db, { title: "a mine", source: mine.source });
      await createConversation(test.db, { title: "b theirs", source: theirs.source });
      expect(await deleteStagedConversations(test.db, mine.source)).toBe(1);
      expect(await sourcesOf(test.db)).toEqual([theirs.source]);
    } finally {
      mine.end();
      theirs.end();
    }
  });

  it("[IN-1] publishing conversations a clean-up deleted as abandoned fails whole, naming the lease", async () => {
    const staging = beginStaging(test.db);
    staging.end();
    const kept = await createConversation(test.db, { title: "a kept", source: staging.source });
    const lost = await createConversation(test.db, { title: "b lost", source: staging.source });
    await test.db.conversation.delete({ where: { id: lost.conversation.id } });
    const publishing = publishStagedConversations(test.db, staging.source, [
      { id: kept.conversation.id, source: "import:jsonl" },
      { id: lost.conversation.id, source: "import:jsonl" },
    ]);
    await expect(publishing).rejects.toSatisfy(ConflictError.isInstance);
    await expect(publishing).rejects.toThrow(new RegExp(`lease of ${LEASE_MS} ms ran out`));
    expect(await sourcesOf(test.db)).toEqual([staging.source]);
  });
});
