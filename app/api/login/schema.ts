import * as z from "zod";

export const signInSchema = z.strictObject({ token: z.string().min(1, "token must not be empty").max(4096) });
