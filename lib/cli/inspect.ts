import fs from "node:fs";
import path from "node:path";
import { AUTOMATION_MODES, type AutomationMode, type PipelineTrace } from "@/lib/context";
import { formatImportIssue, ImportError, parseConversations, type ImportedConversation } from "@/lib/import";
import { emptySnapshot, requestView } from "@/lib/request";
import { nextRequest } from "@/lib/request/next";
import {
  DEFAULT_SETTINGS,
  mergeSettings,
  normalizeSettings,
  resolveSettings,
  settingsChangesSchema,
  type Settings,
  type SettingsChanges,
} from "@/lib/settings";

export const INSPECT_USAGE = `usage: npm run inspect -- <conversation.json | -> [options]

Builds the next request of a conversation (any format the importer reads:
OpenAI messages, {messages}, JSONL, Anthropic Messages, tau-bench {traj}, ...)
exactly as the playground, the recorder and the proxy build it, prints the
pipeline trace and the budget verdict, and writes the request's messages.

options:
  --settings <file>                  stored settings (JSON) to start from, e.g. a saved policy
  --mode <pilot|copilot|navigator>   automation preset (default copilot)
  --budget <tokens>                  hard token budget on everything sent
  --model <name>                     model: its window, reply reserve and encoding (gpt-4o → o200k_base)
  --context-window <tokens>          model input capacity (default: the model's)
  --max-output <tokens>              reply reserve taken off the window (default: the model's)
  --max-message-size <chars>         offload messages longer than this (default 10000)
  --conversation <n>                 which conversation of a multi-conversation file (default 0)
  --out <file>                       where to write the processed history (default <input>.processed.json)
  --json                             print the trace as JSON instead of a table`;

/** Where the command writes; injected so tests read what a user would see. */
export interface InspectIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): string;
}

export interface InspectOptions {
  file: string;
  settings?: string;
  mode?: AutomationMode;
  budget?: number;
  model?: string;
  contextWindow?: number;
  maxOutput?: number;
  maxMessageSize?: number;
  conversation: number;
  out?: string;
  json: boolean;
}

/** A command-line mistake: exit code 2 with the usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

function positiveInteger(flag: string, value: string | undefined): number {
  const parsed = Number(value);
  if (value === undefined || !Number.isInteger(parsed) || parsed < 0) throw new UsageError(`${flag} needs a whole number of at least 0, got '${value ?? ""}'`);
  return parsed;
}

export function parseInspectArguments(argv: readonly string[]): InspectOptions {
  const options: Partial<InspectOptions> & { conversation: number; json: boolean } = { conversation: 0, json: false };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    const value = () => {
      index += 1;
      return argv[index];
    };
    switch (argument) {
      case "--mode": {
        const mode = value();
        if (!AUTOMATION_MODES.includes(mode as AutomationMode)) throw new UsageError(`--mode must be pilot, copilot or navigator, got '${mode ?? ""}'`);
        options.mode = mode as AutomationMode;
        break;
      }
      case "--settings": {
        const file = value();
        if (!file) throw new UsageError("--settings needs a file");
        options.settings = file;
        break;
      }
      case "--budget":
        options.budget = positiveInteger(argument, value());
        break;
      case "--model": {
        const model = value();
        if (!model) throw new UsageError("--model needs a model name");
        options.model = model;
        break;
      }
      case "--context-window":
        options.contextWindow = positiveInteger(argument, value());
        break;
      case "--max-output":
        options.maxOutput = positiveInteger(argument, value());
        break;
      case "--max-message-size":
        options.maxMessageSize = positiveInteger(argument, value());
        break;
      case "--conversation":
        options.conversation = positiveInteger(argument, value());
        break;
      case "--out":
        options.out = value();
        break;
      case "--json":
        options.json = true;
        break;
      case "-h":
      case "--help":
        throw new UsageError("");
      default:
        if (argument.startsWith("--")) throw new UsageError(`unknown option ${argument}`);
        if (options.file !== undefined) throw new UsageError(`one conversation file at a time (got '${options.file}' and '${argument}')`);
        options.file = argument;
    }
  }
  if (!options.file) throw new UsageError("no conversation file given");
  return options as InspectOptions;
}

const number = (value: number) => value.toLocaleString("en");

/** The trace as an aligned text table: processor, messages and tokens before → after, delta, ms. */
export function formatTraceTable(trace: PipelineTrace): string {
  const rows = trace.steps.map((step) => [
    step.processor,
    `${number(step.messagesBefore)} → ${number(step.messagesAfter)}`,
    `${number(step.tokensBefore)} → ${number(step.tokensAfter)}`,
    step.tokensAfter === step.tokensBefore
      ? "0"
      : `${step.tokensAfter > step.tokensBefore ? "+" : "−"}${number(Math.abs(step.tokensAfter - step.tokensBefore))}`,
    step.ms.toFixed(1),
  ]);
  const header = ["processor", "messages", "tokens", "Δ tokens", "ms"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ");
  return [line(header), widths.map((width) => "─".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

function readInput(file: string, io: InspectIO): string {
  if (file === "-") return io.readStdin();
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `no such file: ${file}` : `cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The settings the flags ask for: a settings file (normalised as stored rows are), then each flag over it. */
function settingsOf(options: InspectOptions, io: InspectIO): Settings {
  let base = DEFAULT_SETTINGS;
  if (options.settings !== undefined) {
    let stored: unknown;
    try {
      stored = JSON.parse(readInput(options.settings, io));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`--settings ${options.settings} is not JSON: ${(error as Error).message}`);
    }
    base = normalizeSettings(stored).settings;
  }
  const changes: SettingsChanges = {
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.model ? { model: options.model, contextWindow: null, maxOutputTokens: null, encoding: null } : {}),
    ...(options.budget !== undefined ? { tokenBudget: options.budget } : {}),
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    ...(options.maxOutput !== undefined ? { maxOutputTokens: options.maxOutput } : {}),
    ...(options.maxMessageSize !== undefined ? { maxMessageSize: options.maxMessageSize } : {}),
  };
  const checked = settingsChangesSchema.safeParse(changes);
  if (!checked.success) throw new UsageError(checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  return mergeSettings(base, checked.data);
}

function pickConversation(conversations: ImportedConversation[], index: number): ImportedConversation {
  const conversation = conversations[index];
  if (!conversation)
    throw new UsageError(
      `--conversation ${index}: the file holds ${conversations.length} conversation${conversations.length === 1 ? "" : "s"} (0–${conversations.length - 1})`,
    );
  return conversation;
}

/** Runs the command; returns the process exit code (0 ok, 1 bad input, 2 usage). */
export async function runInspect(argv: readonly string[], io: InspectIO): Promise<number> {
  let options: InspectOptions;
  try {
    options = parseInspectArguments(argv);
    const text = readInput(options.file, io);
    const { conversations, format } = parseConversations(text, { filename: options.file === "-" ? undefined : path.basename(options.file) });
    const conversation = pickConversation(conversations, options.conversation);
    const settings = resolveSettings(settingsOf(options, io));
    const request = await nextRequest({
      records: conversation.messages.map((message, position) => ({ position, message })),
      snapshot: emptySnapshot("inspect"),
      settings,
      tools: conversation.tools ?? [],
    });
    const out = options.out ?? (options.file === "-" ? "processed.json" : options.file.replace(/(\.jsonl?|\.json)?$/i, ".processed.json"));
    fs.writeFileSync(out, `${JSON.stringify(request.messages, null, 2)}\n`);
    if (options.json) {
      io.stdout(JSON.stringify({ conversation: conversation.title, format, ...requestView(request, settings) }, null, 2));
      return 0;
    }
    const { policy } = settings;
    const { verdict } = request;
    const approx = settings.exact ? "" : " (approximate counts)";
    io.stdout(
      `${conversation.title} · ${format} · ${conversations.length > 1 ? `conversation ${options.conversation} of ${conversations.length} · ` : ""}${number(conversation.messages.length)} messages · ${policy.mode} · ${policy.model} · ${policy.encoding}${approx}${policy.tokenBudget !== null ? ` · budget ${number(policy.tokenBudget)}` : ""}`,
    );
    for (const warning of conversation.warnings) io.stdout(`warning: ${warning.message}`);
    for (const repair of request.repairs) io.stdout(`repaired: ${repair.message}`);
    io.stdout("");
    io.stdout(formatTraceTable(request.trace));
    io.stdout("");
    for (const section of request.sections) io.stdout(`${section.label}: ${number(section.tokens)} tokens`);
    if (verdict.tokens.priming > 0) io.stdout(`Reply priming: ${number(verdict.tokens.priming)} tokens`);
    if (!verdict.ok) io.stdout(`over budget: ${verdict.reason}; nothing would be sent`);
    io.stdout(
      `wrote ${number(request.messages.length)} messages (${number(verdict.tokens.total)} tokens with tools, limit ${number(verdict.limit)}) to ${out}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) io.stderr(`inspect: ${error.message}`);
      io.stderr(INSPECT_USAGE);
      return 2;
    }
    if (ImportError.isInstance(error)) {
      io.stderr(`inspect: the conversation could not be read:`);
      for (const issue of error.issues) io.stderr(`  ${formatImportIssue(issue)}`);
      return 1;
    }
    throw error;
  }
}
