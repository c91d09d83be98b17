import type { Message, ToolDefinition } from "../messages";
import type { TiktokenCounter } from "../tokens/counter";
import type { PersistedSummary, RetrievedMemory } from "./memory";
import { isUserSystemMessage, type MessageTokens } from "./verdict";

/** The parts of a request, in the order providers' prompt caches want them: static first. */
export type RequestSectionKind = "system" | "tools" | "summary" | "retrieved" | "recent" | "current";

/** One part of a request, as the inspector shows it. */
export interface RequestSection {
  kind: RequestSectionKind;
  label: string;
  /** Its messages, in request order (tools: none). */
  messages: Message[];
  /** Where they are in the request's messages. */
  indices: number[];
  /** Its tokens; with the verdict's reply priming, the sections add up to the total (E-RB4). */
  tokens: number;
}

const ORDER: readonly RequestSectionKind[] = ["system", "tools", "summary", "retrieved", "recent", "current"];

function kindOf(message: Message, current: Message | null): RequestSectionKind {
  if (current !== null && message === current) return "current";
  if (message.engine?.kind === "conversation-summary") return "summary";
  if (message.engine?.kind === "retrieved-memory") return "retrieved";
  if (isUserSystemMessage(message)) return "system";
  return "recent";
}

interface SectionContext {
  current: Message | null;
  summary: PersistedSummary | null;
  /** The message the persisted summary is sent as; a summary made for this request replaces it. */
  summaryMessage: Message | null;
  retrieved: readonly RetrievedMemory[];
}

function summaryLabel(section: RequestSection, context: SectionContext): string {
  if (context.summary && context.summaryMessage && section.messages.includes(context.summaryMessage)) return context.summary.label;
  return context.summary ? `${context.summary.label}, extended for this request` : "Conversation summary made for this request";
}

function labelOf(section: RequestSection, context: SectionContext & { tools: number }): string {
  const { kind } = section;
  const count = section.messages.length;
  const plural = (noun: string, value: number) => `${value} ${noun}${value === 1 ? "" : "s"}`;
  switch (kind) {
    case "system":
      return count === 1 ? "System prompt" : `System prompt (${plural("message", count)})`;
    case "tools":
      return `Tools: ${plural("definition", context.tools)}`;
    case "summary":
      return summaryLabel(section, context);
    case "retrieved":
      return `Retrieved: ${context.retrieved.map((memory) => memory.label).join(", ") || plural("memory", count)}`;
    case "recent":
      return `Recent: ${plural("message", count)}`;
    case "current":
      return "Current turn";
  }
}

/** The request's messages and tools split into sections (E-RB4). */
export function requestSections(
  messages: readonly Message[],
  tools: readonly ToolDefinition[],
  counter: TiktokenCounter,
  context: SectionContext,
  tokensOf: MessageTokens = (message) => counter.countMessage(message),
): RequestSection[] {
  const byKind = new Map<RequestSectionKind, RequestSection>();
  messages.forEach((message, index) => {
    const kind = kindOf(message, context.current);
    let section = byKind.get(kind);
    if (!section) {
      section = { kind, label: "", messages: [], indices: [], tokens: 0 };
      byKind.set(kind, section);
    }
    section.messages.push(message);
    section.indices.push(index);
    section.tokens += tokensOf(message, index);
  });
  if (tools.length > 0) byKind.set("tools", { kind: "tools", label: "", messages: [], indices: [], tokens: counter.countTools(tools) });
  const sections = ORDER.flatMap((kind) => byKind.get(kind) ?? []);
  for (const section of sections) section.label = labelOf(section, { ...context, tools: tools.length });
  return sections;
}
