/**
 * The entries of an MCP log: JSON-RPC 2.0 messages as a client, inspector or
 * proxy writes them, bare or wrapped with the time and direction
 * (`{timestamp, direction, message}`), one a line or in an array (a JSON-RPC
 * batch is an array too).
 */
import { isoTime } from "@/lib/formats";
import { isRecord, type JsonPath } from "../../issues";

export interface Entry {
  message: Record<string, unknown>;
  path: JsonPath;
  at?: string;
  sessionId?: string;
}

const WRAPPED = ["message", "msg", "payload", "data", "body"];
const MCP_METHOD = /^(tools|resources|prompts|sampling|elicitation|completion|logging|roots|notifications)\//;

/** True for a message some recorders keep without `jsonrpc` (the Go SDK's request and result structs). */
function looksLikeMcp(value: Record<string, unknown>): boolean {
  return typeof value.method === "string" || "result" in value || "error" in value || Array.isArray(value.content);
}

/** The entry at `path`: a JSON-RPC message, or a wrapper holding one; undefined for anything else. */
export function entryOf(value: unknown, path: JsonPath): Entry | undefined {
  if (!isRecord(value)) return undefined;
  if (value.jsonrpc === "2.0") return { message: value, path };
  const direction = value.direction ?? value.dir ?? value.type;
  for (const key of WRAPPED) {
    const inner = value[key];
    if (!isRecord(inner) || (inner.jsonrpc !== "2.0" && !(typeof direction === "string" && looksLikeMcp(inner)))) continue;
    const entry: Entry = { message: inner, path: [...path, key] };
    const at = isoTime(value.timestamp ?? value.ts ?? value.time ?? value.created_at);
    if (at !== undefined) entry.at = at;
    const session = value.sessionId ?? value.session_id ?? value.mcpSessionId;
    if (typeof session === "string") entry.sessionId = session;
    return entry;
  }
  return undefined;
}

/** Every entry of a value (a batch or an array of entries is flattened); undefined when some element is not one. */
export function entriesOf(value: unknown, path: JsonPath): Entry[] | undefined {
  if (Array.isArray(value)) {
    const nested = value.map((element, index) => entriesOf(element, [...path, index]));
    return nested.every((entries) => entries !== undefined) ? nested.flat() : undefined;
  }
  const entry = entryOf(value, path);
  return entry === undefined ? undefined : [entry];
}

/** True when the entries are MCP's, not another JSON-RPC protocol's (LSP): an MCP method, or an initialize naming MCP's protocol version. */
export function isMcpLog(entries: readonly Entry[] | undefined): boolean {
  return (
    entries !== undefined &&
    entries.length > 0 &&
    entries.some(
      ({ message }) =>
        (typeof message.method === "string" && MCP_METHOD.test(message.method)) ||
        (isRecord(message.params) && "protocolVersion" in message.params) ||
        (isRecord(message.result) && "protocolVersion" in message.result),
    )
  );
}
