import * as z from "zod";
import { messagesSchema, queryInteger, storedCount } from "@/lib/api/schemas";

/** Messages one read returns at most: a longer history comes in pages, each naming where the next starts. */
export const MESSAGE_PAGE_LIMIT = 1_000;

export const historyQuerySchema = z
  .object({
    from: queryInteger.optional(),
    to: queryInteger.optional(),
    limit: queryInteger.min(1, "must be at least 1").max(MESSAGE_PAGE_LIMIT, `at most ${MESSAGE_PAGE_LIMIT}`).optional(),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.to >= query.from, {
    message: "to must not be smaller than from",
    path: ["to"],
  });

export const recordMessagesSchema = z
  .strictObject({
    messages: messagesSchema.min(1, "messages must hold at least one message"),
    /** Optimistic append: 409 unless the branch holds exactly this many messages. */
    expectedLength: storedCount.optional(),
    /** One object per message, stored with it (recorded-request info, what the client did). */
    metadata: z.array(z.record(z.string(), z.json())).optional(),
  })
  .refine((body) => body.metadata === undefined || body.metadata.length === body.messages.length, {
    message: "metadata needs one object per message",
    path: ["metadata"],
  });
