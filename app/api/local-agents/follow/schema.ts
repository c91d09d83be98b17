import * as z from "zod";
import { followTargetSchema, sessionPathSchema } from "@/lib/local-agents/schemas";

export const followBodySchema = z.object({ path: sessionPathSchema });
export const unfollowBodySchema = followTargetSchema;
export const followQuerySchema = z.object({ conversation: z.string().min(1).max(200).optional() });
