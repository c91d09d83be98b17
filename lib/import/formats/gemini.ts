/** Gemini `contents`: a `generateContent` request `{contents, systemInstruction?, tools?}` or the bare array, read by lib/formats' Gemini reader. */
import { readGeminiContents } from "@/lib/formats";
import { isRecord } from "../issues";
import type { DocumentImporter } from "../registry";
import { readRequestInScope, readWithScope } from "../requests";

const ROLES = new Set(["user", "model", "function"]);

function isContent(value: unknown): boolean {
  return (
    isRecord(value) && Array.isArray(value.parts) && (value.role === undefined || (typeof value.role === "string" && ROLES.has(value.role))) && !("id" in value)
  );
}

export const geminiImporter: DocumentImporter = {
  format: "gemini",
  detect(value) {
    if (Array.isArray(value)) return value.length > 0 && value.every(isContent) && value.some((content) => isRecord(content) && content.role === "model");
    return isRecord(value) && Array.isArray(value.contents);
  },
  convert(value, place, context) {
    const scope = context.scope(Array.isArray(value) ? place.path : [...place.path, "contents"], place.conversationIndex);
    if (Array.isArray(value)) {
      const messages = readWithScope(scope, "gemini", place.path, (conversion) => readGeminiContents(value, conversion));
      return [{ format: "gemini", messages, warnings: scope.warnings }];
    }
    const read = readRequestInScope(scope, "gemini", value, place.path);
    if (read === undefined) return [{ format: "gemini", messages: [], warnings: scope.warnings }];
    return [{ format: "gemini", messages: read.messages, tools: read.tools, warnings: scope.warnings, source: read.rest }];
  },
};
