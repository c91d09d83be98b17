import * as z from "zod";

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** PUT /api/settings/upstream: absent fields stay, `null` (or "") clears one. */
export const upstreamSettingsSchema = z.strictObject({
  baseUrl: z
    .string()
    .refine(
      (value) => value.trim() === "" || isHttpUrl(value),
      "baseUrl must be an http(s) URL ending before /chat/completions, like https://api.openai.com/v1",
    )
    .nullable()
    .optional(),
  apiKey: z.string().max(1_000).nullable().optional(),
  timeoutMs: z.number().int().min(1_000).max(3_600_000).nullable().optional(),
  anthropic: z
    .strictObject({
      baseUrl: z
        .string()
        .refine(
          (value) => value.trim() === "" || isHttpUrl(value),
          "anthropic.baseUrl must be an http(s) URL ending before /v1/messages, like https://api.anthropic.com",
        )
        .nullable()
        .optional(),
      apiKey: z.string().max(1_000).nullable().optional(),
    })
    .optional(),
});
