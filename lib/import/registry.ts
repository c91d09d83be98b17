/**
 * The detection registry: every import format beyond OpenAI chat, Anthropic
 * Messages and tau-bench is one small module with a detector, listed here in
 * the order they are tried (the most specific shapes first). Detection names
 * the format it recognised; a refusal names it too (`IssueCollector.reading`).
 */
import type { IssueCollector, JsonPath } from "./issues";
import { MessageScope } from "./issues";
import type { JsonlRecord } from "./jsonl";
import type { ConversationDraft } from "./requests";
import { IMPORT_FORMAT_LABELS, type ImportFormat } from "./types";
import { aiSdkModelImporter } from "./formats/ai-sdk-model";
import { aiSdkUiImporter } from "./formats/ai-sdk-ui";
import { claudeCodeImporter } from "./formats/claude-code";
import { clineHistoryImporter } from "./formats/cline/history";
import { clineUiImporter } from "./formats/cline/ui-messages";
import { codexImporter } from "./formats/codex";
import { geminiImporter } from "./formats/gemini";
import { geminiCliImporter } from "./formats/gemini-cli/importer";
import { heliconeImporter, heliconeLinesImporter } from "./formats/helicone";
import { langchainImporter } from "./formats/langchain";
import { langfuseImporter } from "./formats/langfuse";
import { lettaImporter } from "./formats/letta";
import { litellmImporter } from "./formats/litellm";
import { miniSweAgentImporter } from "./formats/mini-swe-agent";
import { openaiAgentsImporter } from "./formats/openai-agents";
import { openhandsImporter, openhandsLinesImporter } from "./formats/openhands";
import { pydanticAiImporter } from "./formats/pydantic-ai";
import { mcpImporter, mcpLinesImporter } from "./formats/mcp";
import { openaiBatchImporter } from "./formats/openai-batch";
import { otelImporter, otelLinesImporter } from "./formats/otel";
import { responsesImporter } from "./formats/responses";
import { sharegptImporter } from "./formats/sharegpt";
import { sweAgentImporter } from "./formats/swe-agent";

/** What an importer is given besides the value: where issues go and the dropped file's name. */
export class ImportContext {
  constructor(
    readonly issues: IssueCollector,
    readonly filename?: string,
  ) {}

  /** Where the messages at `prefix` report issues and warnings. */
  scope(prefix: JsonPath, conversationIndex?: number): MessageScope {
    return new MessageScope(this.issues, prefix, conversationIndex);
  }
}

/** Where a value sits: `[]` for the whole input, `[line index]` for a JSONL line. */
export interface ImportPlace {
  path: JsonPath;
  conversationIndex?: number;
}

/** A format held in one JSON value (a document, or each line of a JSONL file). */
export interface DocumentImporter {
  format: ImportFormat;
  detect(value: unknown): boolean;
  convert(value: unknown, place: ImportPlace, context: ImportContext): ConversationDraft[];
}

/** A format whose lines together make conversations (a transcript written one event a line). */
export interface LinesImporter {
  format: ImportFormat;
  detectLines(values: readonly unknown[]): boolean;
  convertLines(records: readonly JsonlRecord[], context: ImportContext): ConversationDraft[];
}

export const DOCUMENT_IMPORTERS: readonly DocumentImporter[] = [
  openhandsImporter,
  sweAgentImporter,
  miniSweAgentImporter,
  clineHistoryImporter,
  clineUiImporter,
  geminiCliImporter,
  openaiBatchImporter,
  heliconeImporter,
  mcpImporter,
  litellmImporter,
  langfuseImporter,
  otelImporter,
  pydanticAiImporter,
  lettaImporter,
  openaiAgentsImporter,
  sharegptImporter,
  langchainImporter,
  aiSdkUiImporter,
  aiSdkModelImporter,
  responsesImporter,
  geminiImporter,
];

export const LINES_IMPORTERS: readonly LinesImporter[] = [
  claudeCodeImporter,
  codexImporter,
  openhandsLinesImporter,
  heliconeLinesImporter,
  mcpLinesImporter,
  otelLinesImporter,
];

/** The document importer that recognises `value`, or the one `forced` names. */
export function findDocumentImporter(value: unknown, forced?: ImportFormat): DocumentImporter | undefined {
  if (forced !== undefined) return DOCUMENT_IMPORTERS.find((importer) => importer.format === forced);
  return DOCUMENT_IMPORTERS.find((importer) => importer.detect(value));
}

/** The lines importer that recognises the values of a JSONL file, or the one `forced` names. */
export function findLinesImporter(values: readonly unknown[], forced?: ImportFormat): LinesImporter | undefined {
  if (forced !== undefined) return LINES_IMPORTERS.find((importer) => importer.format === forced);
  return LINES_IMPORTERS.find((importer) => importer.detectLines(values));
}

/** Runs an importer with its format named on every issue it raises. */
export function runImporter<T>(format: ImportFormat, issues: IssueCollector, run: () => T): T {
  const previous = issues.reading;
  issues.reading = IMPORT_FORMAT_LABELS[format];
  try {
    return run();
  } finally {
    issues.reading = previous;
  }
}
