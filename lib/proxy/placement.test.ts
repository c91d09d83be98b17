import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context";
import { appendMessages, createConversation, type Database } from "@/lib/db";
import { readingClient } from "@/tests/support/counting-client";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { messageFingerprint } from "./canonical";
import { placeTurns, rememberAppended } from "./placement";
import { conversationKeyOf, rememberOpening } from "./protocols/session";

const system: Message = { role: "system", content: "You are a careful agent. It is 10:00." };
const question: Message = { role: "user", content: "Where is my order #W2378156?" };
const answer: Message = { role: "assistant", content: "Let me look it up." };
const followUp: Message = { role: "user", content: "It was due on Monday." };

const turnsOf = (messages: readonly Message[]) => messages.map((message) => ({ message, fingerprint: messageFingerprint(message) }));

describe.each(TEST_PROVIDERS)("what the recorder knows of a new conversation without reading it back (%s)", (provider) => {
  const test = useTestDatabase(provider);

  /** An agent's first call as the recorder places and appends it, on a new conversation under `key`. */
  async function firstCallRecorded(db: Database, key: string) {
    const { conversation } = await createConversation(db, { title: key, source: "proxy", recordKey: key });
    const placement = await placeTurns(db, conversation.id, turnsOf([system, question]));
    const appended = await appendMessages(
      db,
      placement.branch.id,
      placement.fresh.map((turn) => ({ message: turn.message, tokens: 8 })),
      { expectedLength: placement.common },
    );
    rememberAppended(db, conversation.id, placement.branch.id, appended);
    rememberOpening(db, conversation.id, placement.branch, appended);
    return { conversation, placement, appended };
  }

  it("[P-SP1] the placement after a new branch's first append reads none of its history, and lines up as a placement that reads it", async () => {
    const reading = readingClient(test.db);
    const { conversation, placement: first } = await firstCallRecorded(reading.db, "orders-agent");
    const before = reading.reads();
    const second = await placeTurns(reading.db, conversation.id, turnsOf([system, question, answer, followUp]));
    expect(reading.reads() - before).toBe(0);
    expect(second.branch.id).toBe(first.branch.id);
    expect(second.common).toBe(2);
    expect(second.fresh.map((turn) => turn.message)).toEqual([answer, followUp]);
    // A client with nothing cached reads the branch and places the same way.
    const fresh = await placeTurns(readingClient(test.db).db, conversation.id, turnsOf([system, question, answer, followUp]));
    expect({ branch: fresh.branch.id, common: fresh.common, fresh: fresh.fresh }).toEqual({
      branch: second.branch.id,
      common: second.common,
      fresh: second.fresh,
    });
  });

  it("[P-S3] the agent's next requests are judged by the opening the recorder appended, without reading it back", async () => {
    const reading = readingClient(test.db);
    await firstCallRecorded(reading.db, "support-agent");
    const identity = { key: "support-agent", via: "api-key" as const, agentApiKey: null };
    const before = reading.reads();
    // Another clock in the system prompt, the same opening: the same run.
    const continued = await conversationKeyOf(reading.db, identity, [{ role: "system", content: "You are a careful agent. It is 10:05." }, question, answer]);
    const other = await conversationKeyOf(reading.db, identity, [system, { role: "user", content: "Cancel order #W9999999." }]);
    expect(reading.reads() - before).toBe(0);
    expect(continued).toBe("support-agent");
    expect(other).toMatch(/^support-agent#[0-9a-f]{8}$/);
    // A client with nothing cached reads the opening back and judges alike.
    const unknowing = readingClient(test.db);
    expect(await conversationKeyOf(unknowing.db, identity, [system, question, answer])).toBe(continued);
    expect(await conversationKeyOf(unknowing.db, identity, [system, { role: "user", content: "Cancel order #W9999999." }])).toBe(other);
    expect(unknowing.reads()).toBeGreaterThan(0);
  });

  it("[P-S3] an append that does not start the root branch says nothing of its opening", async () => {
    const reading = readingClient(test.db);
    const { conversation, placement } = await firstCallRecorded(reading.db, "late-agent");
    const later = await appendMessages(
      reading.db,
      placement.branch.id,
      [
        { message: answer, tokens: 6 },
        { message: followUp, tokens: 7 },
      ],
      { expectedLength: 2 },
    );
    // Noting the later append leaves the opening as the first append set it: the question, not the follow-up.
    rememberOpening(reading.db, conversation.id, placement.branch, later);
    const identity = { key: "late-agent", via: "api-key" as const, agentApiKey: null };
    expect(await conversationKeyOf(reading.db, identity, [system, question])).toBe("late-agent");
    expect(await conversationKeyOf(reading.db, identity, [system, followUp])).toMatch(/^late-agent#/);
  });
});
