import * as z from "zod";
import { messagesSchema, queryInteger } from "@/lib/api/schemas";

export const historyQuerySchema = z
  .object({ from: queryInteger.optional(), to: queryInteger.optional() })
  .refine((query) => query.from === undefined || query.to === undefined || query.to >= query.from, {
    message: "to must not be smaller than from",
    path: ["to"],
  });

export const recordMessagesSchema = z
  .strictObject({
    messages: messagesSchema.min(1, "messages must hold at least one message"),
    /** Optimistic append: 409 unless the branch holds exactly this many messages. */
    expectedLength: z.number().int().nonnegative().optional(),
    /** One object per message, stored with it (recorded-request info, what the client did). */
    metadata: z.array(z.record(z.string(), z.json())).optional(),
  })
  .refine((body) => body.metadata === undefined || body.metadata.length === body.messages.length, {
    message: "metadata needs one object per message",
    path: ["metadata"],
  });
