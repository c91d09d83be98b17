import * as z from "zod";

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * BD-6: a key goes out in an HTTP header (`Authorization: Bearer <key>`, `x-api-key`), which carries
 * visible ASCII only: a key with any other character (a curly quote, a non-breaking space, a
 * letter pasted from a chat) would be saved and then fail every call, so it is refused here.
 */
const apiKey = z
  .string()
  .max(1_000)
  .refine((value) => /^[\x21-\x7E]*$/.test(value.trim()), {
    error: (issue) => {
      const bad = [...String(issue.input).trim()].find((character) => !/[\x21-\x7E]/.test(character)) ?? "";
      const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
      return `the key holds ${code}: an API key is visible ASCII only (it is sent in an HTTP header); paste it again without that character`;
    },
  });

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
  apiKey: apiKey.nullable().optional(),
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
      apiKey: apiKey.nullable().optional(),
    })
    .optional(),
});
