import * as z from "zod";
import { sessionPathSchema } from "@/lib/local-agents/schemas";

export const importLocalSessionSchema = z.object({ path: sessionPathSchema });
