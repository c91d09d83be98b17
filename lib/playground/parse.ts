import { ContextError } from "@/lib/context";
import { parseConversations } from "@/lib/import";
import type { PipelineHost } from "./pipeline-host";
import type { LoadedConversation } from "./protocol";

/**
 * Parses pasted text (any import format), repairs broken tool pairs and keeps
 * the conversation in the host. Apart from the host: the worker loads the
 * parsers (and zod) only when text is pasted, not to open a workspace.
 */
export function parsePasted(host: PipelineHost, text: string, options: { filename?: string; conversation?: number } = {}): LoadedConversation {
  const { conversations, format } = parseConversations(text, { filename: options.filename });
  const index = options.conversation ?? 0;
  const picked = conversations[index];
  if (!picked) throw new ContextError(`the input holds ${conversations.length} conversations; there is no conversation ${index}`);
  const loaded = host.load(picked.title, picked.messages, picked.tools);
  return { ...loaded, format, warnings: picked.warnings, offloadMarkers: picked.offloadMarkers, available: conversations.length };
}
