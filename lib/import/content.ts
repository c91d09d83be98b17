/** Message content → canonical text. Non-text content (images, audio, files) becomes a short placeholder. */
import { isRecord, type MessageScope } from "./issues";

const placeholders: Record<string, string> = {
  image: "[image]",
  image_url: "[image]",
  input_image: "[image]",
  input_audio: "[audio]",
  audio: "[audio]",
  file: "[file]",
  input_file: "[file]",
  document: "[document]",
};

/** The placeholder text for a content part or block of `type`. */
export function placeholderFor(type: string): string {
  return placeholders[type] ?? `[${type}]`;
}

/** How text parts and blocks are joined into one content string. */
export const PART_SEPARATOR = "\n";

/**
 * OpenAI message content as canonical text: a string, null, or content parts
 * joined; undefined (with an issue in `scope`) when it cannot be read.
 * `index` is the source message, `at` its index among the converted messages.
 */
export function readOpenAIContent(content: unknown, role: string, scope: MessageScope, index: number, at: number): string | null | undefined {
  if (typeof content === "string" || content === null) return content;
  if (content === undefined) {
    if (role === "assistant") return null;
    scope.fail(index, ["content"], `a ${role} message needs content: a string or an array of content parts`);
    return undefined;
  }
  if (!Array.isArray(content)) {
    scope.fail(index, ["content"], "content must be a string, null or an array of content parts");
    return undefined;
  }
  const texts: string[] = [];
  let failed = false;
  content.forEach((part: unknown, partIndex) => {
    const text = readPart(part, scope, index, at, partIndex);
    if (text === undefined) failed = true;
    else texts.push(text);
  });
  return failed ? undefined : texts.join(PART_SEPARATOR);
}

function readPart(part: unknown, scope: MessageScope, index: number, at: number, partIndex: number): string | undefined {
  const path = ["content", partIndex];
  if (!isRecord(part) || typeof part.type !== "string") {
    scope.fail(index, path, "a content part must be an object with a string type");
    return undefined;
  }
  const field = part.type === "refusal" ? "refusal" : "text";
  if (part.type === "text" || part.type === "input_text" || part.type === "output_text" || part.type === "refusal") {
    if (typeof part[field] === "string") return part[field];
    scope.fail(index, [...path, field], `a ${part.type} part needs a string ${field}`);
    return undefined;
  }
  const placeholder = placeholderFor(part.type);
  scope.warn("content-placeholder", `a content part of type ${part.type} was replaced by the text ${placeholder}`, {
    messageIndex: at,
    path: scope.pathOf(index, ...path),
  });
  return placeholder;
}
