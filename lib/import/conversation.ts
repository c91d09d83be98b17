/** Turns drafts into `ImportedConversation`s: titles, offload markers, pairing warnings. */
import type { Message } from "@/lib/context/messages";
import { sanitizeHistory } from "@/lib/context/sanitize";
import { collectOffloadMarkers } from "./markers";
import type { ConversationDraft } from "./requests";
import type { ImportWarning } from "./types";
import type { ImportedConversation } from "./types";

const TITLE_LENGTH = 60;

/** Finishes every draft, one piece of work a step (IM-9); `filename` titles conversations that carry no title of their own. */
export function* finishConversations(drafts: readonly ConversationDraft[], filename?: string): Generator<void, ImportedConversation[], void> {
  const base = filename === undefined ? undefined : baseName(filename);
  const finished: ImportedConversation[] = [];
  for (const [index, draft] of drafts.entries()) {
    const warnings = [...draft.warnings, ...pairingWarnings(draft.messages)];
    yield;
    const conversation: ImportedConversation = {
      title: draft.title ?? titleFor(draft.messages, base, index, drafts.length),
      format: draft.format,
      messages: draft.messages,
      offloadMarkers: collectOffloadMarkers(draft.messages),
      warnings,
    };
    if (draft.tools !== undefined) conversation.tools = draft.tools;
    if (draft.source !== undefined) conversation.source = draft.source;
    if (draft.facts?.some((facts) => facts !== undefined)) conversation.facts = draft.facts;
    if (draft.session !== undefined) conversation.session = draft.session;
    if (draft.compactions?.length) conversation.compactions = draft.compactions;
    if (draft.subagentOf !== undefined) conversation.subagentOf = draft.subagentOf;
    finished.push(conversation);
    yield;
  }
  return finished;
}

/**
 * Broken tool pairing is a warning, not an import error: the messages are
 * kept, and stored as the engine's `sanitizeHistory` repairs them. Its repairs
 * are the warnings, so the import and the engine agree on what is broken.
 */
function pairingWarnings(messages: readonly Message[]): ImportWarning[] {
  return sanitizeHistory(messages).repairs.map((repair) => ({
    code: repair.kind,
    // The index is the warning's own field; the text need not repeat it.
    message: repair.message.replace(/^message \d+: /, ""),
    messageIndex: repair.index,
  }));
}

function baseName(filename: string): string {
  const name = filename.split(/[\\/]/).pop() ?? filename;
  return name.replace(/\.(jsonl|ndjson|json|txt)$/i, "") || name;
}

/** The file's name (numbered when it holds several), else the first user words, else a generic title. */
function titleFor(messages: readonly Message[], base: string | undefined, index: number, count: number): string {
  if (base !== undefined) return count > 1 ? `${base} #${index + 1}` : base;
  const firstUser = messages.find((message) => message.role === "user" && (message.content ?? "").trim() !== "");
  const words = firstUser?.content?.trim().split("\n")[0].replace(/\s+/g, " ");
  if (words === undefined) return count > 1 ? `Imported conversation #${index + 1}` : "Imported conversation";
  return words.length > TITLE_LENGTH ? `${words.slice(0, TITLE_LENGTH - 1).trimEnd()}…` : words;
}
