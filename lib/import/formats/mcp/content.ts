/** MCP tool results (`{content: [...], isError}`, or a JSON-RPC error) → an Anthropic `tool_result` block. */
import { isRecord, type JsonPath, type MessageScope } from "../../issues";
import { mediaBlock } from "../anthropic-wire";

/** One MCP content item → an Anthropic block; undefined when it has no place in a tool result (warned). */
function contentBlock(item: unknown, path: JsonPath, scope: MessageScope): Record<string, unknown> | undefined {
  if (!isRecord(item)) {
    scope.failAt(path, "each content item must be an object with a type");
    return undefined;
  }
  if (item.annotations !== undefined)
    scope.warn("part-dropped", "a content item's annotations (audience, priority) have no place in a tool result: dropped", { path: [...path, "annotations"] });
  switch (item.type) {
    case "text":
      return { type: "text", text: String(item.text ?? "") };
    case "image":
    case "audio":
      return mediaBlock(String(item.data ?? ""), typeof item.mimeType === "string" ? item.mimeType : undefined);
    case "resource": {
      const resource = isRecord(item.resource) ? item.resource : {};
      const mimeType = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
      const uri = typeof resource.uri === "string" ? resource.uri : undefined;
      const title = typeof resource.title === "string" && uri !== undefined ? `${resource.title} (${uri})` : uri;
      if (typeof resource.text === "string")
        return {
          type: "document",
          source: { type: "text", media_type: mimeType ?? "text/plain", data: resource.text },
          ...(title === undefined ? {} : { title }),
        };
      if (typeof resource.blob === "string") return mediaBlock(resource.blob, mimeType ?? "application/octet-stream", title);
      scope.failAt([...path, "resource"], "an embedded resource needs a text or a blob");
      return undefined;
    }
    case "resource_link":
      scope.warn("part-approximated", `a link to the resource ${String(item.uri)} became a line of text naming it`, { path });
      return { type: "text", text: `[resource ${String(item.name ?? item.uri)}: ${String(item.uri)}]` };
    default:
      scope.warn("part-dropped", `a ${String(item.type)} content item has no place in a tool result: dropped`, { path });
      return undefined;
  }
}

/** The `tool_result` block answering `callId` with a `tools/call` response at `path`. */
export function toolResultBlock(callId: string, response: Record<string, unknown>, path: JsonPath, scope: MessageScope): Record<string, unknown> {
  if (isRecord(response.error)) {
    const code = response.error.code === undefined ? "" : ` (${String(response.error.code)})`;
    return {
      type: "tool_result",
      tool_use_id: callId,
      is_error: true,
      content: [{ type: "text", text: `${String(response.error.message ?? "error")}${code}` }],
    };
  }
  // A result may be the JSON-RPC response's `result`, or (some recorders) the result on its own.
  const result = isRecord(response.result) ? response.result : response;
  const resultPath = isRecord(response.result) ? [...path, "result"] : path;
  const items = Array.isArray(result.content) ? result.content : [];
  const content = items.flatMap((item, index) => contentBlock(item, [...resultPath, "content", index], scope) ?? []);
  if (result.structuredContent !== undefined && content.length === 0) content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  else if (result.structuredContent !== undefined)
    scope.warn("part-dropped", "structuredContent was left out: the result's text content repeats it", { path: [...resultPath, "structuredContent"] });
  const block: Record<string, unknown> = { type: "tool_result", tool_use_id: callId, content };
  if (result.isError === true) block.is_error = true;
  return block;
}
