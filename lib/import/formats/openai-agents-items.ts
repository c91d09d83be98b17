/**
 * OpenAI Agents SDK (JS) protocol items → OpenAI Responses items: `callId`
 * becomes `call_id`, `function_call_result` / `computer_call_result` the
 * `*_output` items, content parts take the Responses field names, and
 * `providerData` (what the provider sent besides the protocol's fields) is
 * put back on the item, as the SDK's own OpenAI provider does.
 */
import { isRecord, type JsonPath } from "../issues";
import type { ImportWarningCode } from "../types";

type Raw = Record<string, unknown>;

/** Where an item's conversion reports what it left out. */
export type ItemNotes = (code: ImportWarningCode, message: string, path: JsonPath) => void;

const RENAMED: Readonly<Record<string, string>> = { function_call_result: "function_call_output", computer_call_result: "computer_call_output" };
const SNAKE: Readonly<Record<string, string>> = {
  callId: "call_id",
  callerId: "caller_id",
  maxOutputLength: "max_output_length",
  timeoutMs: "timeout_ms",
  exitCode: "exit_code",
  moveTo: "move_to",
  encryptedContent: "encrypted_content",
};

/** The protocol's camelCase keys of one object as Responses spells them (values untouched). */
function snakeKeys(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [SNAKE[key] ?? key, field]));
}

/** One protocol item as the Responses item it stands for. */
export function responsesItemOf(item: Raw, path: JsonPath, note: ItemNotes): Raw {
  const { providerData, ...fields } = item;
  const extra = isRecord(providerData) ? providerData : {};
  const type = typeof fields.type === "string" ? fields.type : typeof fields.role === "string" ? "message" : undefined;
  if (type === "message") return messageItem(fields, extra, path, note);
  if (type === "reasoning") {
    const summary = Array.isArray(fields.content) ? fields.content.filter(isRecord).map((part) => ({ type: "summary_text", text: part.text })) : [];
    const reasoning: Raw = { ...extra, type: "reasoning", summary };
    if (typeof fields.id === "string") reasoning.id = fields.id;
    if (Array.isArray(fields.rawContent)) reasoning.content = fields.rawContent.filter(isRecord).map((part) => ({ type: "reasoning_text", text: part.text }));
    return snakeKeys(reasoning) as Raw;
  }
  if (type === "hosted_tool_call") {
    // The provider's own item travels in providerData; the SDK lifts its output (an image's result) out of it.
    const hosted: Raw = { ...extra, type: typeof extra.type === "string" ? extra.type : fields.name, id: fields.id ?? extra.id };
    if (fields.status !== undefined) hosted.status = fields.status;
    if (fields.arguments !== undefined && extra.arguments === undefined) hosted.arguments = fields.arguments;
    if (fields.output !== undefined) hosted[hosted.type === "image_generation_call" ? "result" : "output"] = fields.output;
    return hosted;
  }
  if (type === "unknown") return { type: "unknown", ...extra, ...(fields.id === undefined ? {} : { id: fields.id }) };
  const converted: Raw = { ...extra, ...(snakeKeys(fields) as Raw), type: RENAMED[type ?? ""] ?? type };
  for (const key of ["action", "operation", "caller"]) if (isRecord(converted[key])) converted[key] = snakeKeys(converted[key]);
  if (type === "function_call_result") {
    converted.output = toolOutput(fields.output, [...path, "output"], note);
    delete converted.name;
  } else if (type === "computer_call_result" && isRecord(fields.output)) converted.output = { type: "computer_screenshot", image_url: fields.output.data };
  else if (type === "shell_call_output" && Array.isArray(fields.output))
    converted.output = fields.output.map((entry) => (isRecord(entry) ? { ...entry, outcome: snakeKeys(entry.outcome) } : entry));
  else if (type === "computer_call" && converted.action === undefined && Array.isArray(fields.actions)) converted.action = fields.actions[0];
  return converted;
}

function messageItem(fields: Raw, extra: Raw, path: JsonPath, note: ItemNotes): Raw {
  const message: Raw = { ...extra, ...fields, type: "message" };
  if (!Array.isArray(fields.content)) return message;
  const output = fields.role === "assistant";
  message.content = fields.content.map((part: unknown, index) => (isRecord(part) ? contentPart(part, output, [...path, "content", index], note) : part));
  return message;
}

/** A protocol content part as a Responses part; parts Responses has no spelling for are kept as they are. */
function contentPart(part: Raw, output: boolean, path: JsonPath, note: ItemNotes): Raw {
  const { providerData, promptCacheBreakpoint, ...fields } = part;
  const extra = isRecord(providerData) ? providerData : {};
  if (promptCacheBreakpoint !== undefined) note("cache-control-dropped", "an explicit prompt-cache breakpoint has no canonical place: left out", path);
  switch (fields.type) {
    case "input_text":
    case "refusal":
      return { ...extra, ...fields };
    case "output_text":
      return { ...extra, ...fields, annotations: Array.isArray(extra.annotations) ? extra.annotations : [] };
    case "input_image": {
      const image: Raw = { ...extra, type: "input_image" };
      const source = fields.image ?? fields.imageUrl ?? (typeof fields.fileId === "string" ? { id: fields.fileId } : undefined);
      if (typeof source === "string") image.image_url = source;
      else if (isRecord(source) && typeof source.id === "string") image.file_id = source.id;
      if (fields.detail !== undefined) image.detail = fields.detail;
      return image;
    }
    case "input_file":
      return { ...extra, ...fileFields(fields.file ?? fields.fileData ?? fields.fileUrl ?? (fields.fileId && { id: fields.fileId }), fields.filename) };
    case "audio":
      if (!output && typeof fields.audio === "string") return { type: "input_audio", input_audio: { data: fields.audio, format: fields.format ?? "wav" } };
      return { ...extra, ...fields };
    default:
      return { ...extra, ...fields };
  }
}

function fileFields(file: unknown, filename: unknown): Raw {
  const fields: Raw = { type: "input_file" };
  if (typeof file === "string") fields[file.startsWith("https://") || file.startsWith("http://") ? "file_url" : "file_data"] = file;
  else if (isRecord(file) && typeof file.id === "string") fields.file_id = file.id;
  else if (isRecord(file) && typeof file.url === "string") fields.file_url = file.url;
  else if (isRecord(file) && typeof file.data === "string")
    fields.file_data = file.data.startsWith("data:") ? file.data : `data:${String(file.mediaType ?? "application/octet-stream")};base64,${file.data}`;
  const name = filename ?? (isRecord(file) ? file.filename : undefined);
  if (typeof name === "string") fields.filename = name;
  return fields;
}

/** A function result's output: text as it is, an image or file (or a list of input parts) as Responses input parts. */
function toolOutput(output: unknown, path: JsonPath, note: ItemNotes): unknown {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map((part: unknown, index) => (isRecord(part) ? contentPart(part, false, [...path, index], note) : part));
  if (!isRecord(output)) return JSON.stringify(output ?? null);
  if (output.type === "text" && typeof output.text === "string") return output.text;
  if (output.type === "image") {
    const image = output.image;
    const url = isRecord(image) && typeof image.data === "string" ? `data:${String(image.mediaType ?? "image/png")};base64,${image.data}` : undefined;
    const source =
      isRecord(image) && typeof image.url === "string" ? image.url : isRecord(image) && typeof image.fileId === "string" ? { id: image.fileId } : image;
    return [contentPart({ type: "input_image", image: url ?? source, detail: output.detail }, false, path, note)];
  }
  if (output.type === "file") return [fileFields(output.file, undefined)];
  return JSON.stringify(output);
}
