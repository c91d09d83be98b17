/**
 * Pydantic AI message parts → Anthropic blocks, the shape closest to them:
 * thinking with its signature, tool_use / tool_result with is_error, media
 * by URL or base64, cache points as cache_control. What has no such block is
 * approximated and reported through `note`.
 */
import { isRecord, type JsonPath, type PathNotes } from "../issues";
import { resultText } from "./anthropic-wire";

type Block = Record<string, unknown>;

/** A user prompt's content (a string, or a list of strings and media) → blocks. */
export function userBlocks(content: unknown, path: JsonPath, notes: PathNotes): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) {
    notes.fail(path, "a user-prompt's content must be a string or a list of strings and media");
    return [];
  }
  const blocks: Block[] = [];
  content.forEach((item: unknown, index) => {
    const itemPath = [...path, index];
    if (isRecord(item) && item.kind === "cache-point") {
      const last = blocks.at(-1);
      if (last !== undefined) last.cache_control = item.ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
      else notes.warn("cache-control-dropped", "a cache point before any content marks nothing: left out", itemPath);
      return;
    }
    const block = contentBlock(item, itemPath, notes);
    if (block !== undefined) blocks.push(block);
  });
  return blocks;
}

/** One item of user or tool content: text, a URL to a medium, inline bytes (base64) or an uploaded file. */
function contentBlock(item: unknown, path: JsonPath, notes: PathNotes): Block | undefined {
  if (typeof item === "string") return { type: "text", text: item };
  if (!isRecord(item) || typeof item.kind !== "string") {
    notes.fail(path, "a content item must be a string or an object with a kind (image-url, binary, ...)");
    return undefined;
  }
  const mediaType = typeof item.media_type === "string" ? item.media_type : undefined;
  switch (item.kind) {
    case "text-content":
      return { type: "text", text: typeof item.content === "string" ? item.content : resultText(item.content) };
    case "image-url":
    case "document-url":
    case "audio-url":
    case "video-url":
      if (typeof item.url !== "string") return void notes.fail([...path, "url"], `a ${item.kind} item needs a string url`);
      return media(item.kind === "image-url" ? "image" : "document", { type: "url", url: item.url }, item.kind, mediaType, path, notes);
    case "binary":
      if (typeof item.data !== "string" || mediaType === undefined)
        return void notes.fail([...path, "data"], "a binary item needs its data as base64 text and a media_type");
      return media(
        mediaType.startsWith("image/") ? "image" : "document",
        { type: "base64", media_type: mediaType, data: item.data },
        mediaType,
        mediaType,
        path,
        notes,
      );
    case "uploaded-file":
      if (typeof item.file_id !== "string") return void notes.fail([...path, "file_id"], "an uploaded-file item needs a string file_id");
      return media(
        mediaType?.startsWith("image/") ? "image" : "document",
        { type: "file", file_id: item.file_id },
        mediaType ?? "file",
        mediaType,
        path,
        notes,
      );
    default:
      notes.fail(
        [...path, "kind"],
        `unknown content kind ${JSON.stringify(item.kind)}: expected image-url, document-url, binary, uploaded-file or text-content`,
      );
      return undefined;
  }
}

function media(type: "image" | "document", source: Block, kind: string, mediaType: string | undefined, path: JsonPath, notes: PathNotes): Block {
  // Anthropic blocks have no audio or video: such media are kept as documents, which keep the bytes or the URL.
  if (/^(audio|video)/.test(mediaType ?? kind.replace("-url", "")))
    notes.warn("part-approximated", `${kind} content was kept as a document part: there is no audio or video block to read it into`, path);
  return { type, source };
}

/** What a tool returned: text as it is, media as blocks, any other value as the JSON Pydantic AI sends. */
export function toolResultContent(content: unknown, path: JsonPath, notes: PathNotes): string | Block[] {
  if (typeof content === "string") return content;
  const items = Array.isArray(content) ? content : [content];
  if (!items.some((item) => isRecord(item) && MEDIA_KINDS.has(String(item.kind)))) return resultText(content);
  return items.flatMap((item: unknown, index): Block[] => {
    if (!isRecord(item) || !MEDIA_KINDS.has(String(item.kind))) return [{ type: "text", text: resultText(item) }];
    const block = contentBlock(item, Array.isArray(content) ? [...path, index] : path, notes);
    return block === undefined ? [] : [block];
  });
}

const MEDIA_KINDS = new Set(["image-url", "document-url", "audio-url", "video-url", "binary", "uploaded-file"]);

/**
 * The text Pydantic AI sends for a retry-prompt part (`RetryPromptPart.model_response`):
 * validation errors as indented JSON without their `ctx`, then the request to try again.
 */
export function retryText(content: unknown, forTool: boolean): string {
  let description: string;
  if (typeof content === "string") description = forTool ? content : `Validation feedback:\n${content}`;
  else if (Array.isArray(content)) {
    const errors = content.map((error: unknown) => {
      if (!isRecord(error)) return error;
      const { ctx: _ctx, url: _url, ...rest } = error;
      return rest;
    });
    description = `${errors.length} validation error${errors.length === 1 ? "" : "s"}:\n\`\`\`json\n${JSON.stringify(errors, null, 2)}\n\`\`\``;
  } else description = resultText(content);
  return `${description}\n\nFix the errors and try again.`;
}

/** A tool call's `args` (a JSON string, an object, or the older `{args_json}` / `{args_dict}`) as the text and object it stands for. */
export function callArguments(args: unknown): { text?: string; input: Record<string, unknown> } {
  if (isRecord(args) && typeof args.args_json === "string") return callArguments(args.args_json);
  if (isRecord(args) && isRecord(args.args_dict)) return { input: args.args_dict };
  if (isRecord(args)) return { input: args };
  if (typeof args !== "string" || args.trim() === "") return { text: typeof args === "string" ? args : undefined, input: {} };
  try {
    const parsed: unknown = JSON.parse(args);
    return { text: args, input: isRecord(parsed) ? parsed : {} };
  } catch {
    // A call cut off mid-stream keeps its raw text; the block needs an object, and the text is put back after reading.
    return { text: args, input: {} };
  }
}
