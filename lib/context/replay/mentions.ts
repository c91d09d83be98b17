// What a turn may refer back to (E-RP8): ids, file names, long numbers, quoted strings, URLs.
import type { Message } from "../messages";
import type { MentionKind } from "./types";

/** One thing a message mentions. */
export interface Mention {
  text: string;
  kind: MentionKind;
}

const URL = /https?:\/\/[^\s"'<>()[\]{}]+[^\s"'<>()[\]{}.,;:!?]/g;
const FILE =
  /(?<![\w./-])[\w./-]*[\w-]\.(?:ts|tsx|js|jsx|mjs|cjs|json|py|md|txt|csv|tsv|pdf|png|jpe?g|gif|svg|ya?ml|toml|html?|css|sql|go|rs|java|kt|rb|php|c|h|cpp|hpp|sh|xml|log|docx?|xlsx?|pptx?|zip|ipynb)\b/gi;
// Letters and digits mixed, five characters or more: order numbers, reservation codes, user ids.
const ID = /(?<![\w-])#?(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9#][\w-]{4,}(?![\w-])/g;
const NUMBER = /(?<![\w.,])\d{4,}(?![\w])/g;
const QUOTED = /"([^"\n]{3,80})"|“([^”\n]{3,80})”|'([^'\n]{3,80})'/g;

const cache = new WeakMap<Message, readonly Mention[]>();

/**
 * What a user or assistant turn mentions (E-RP8): from its text, every kind;
 * from its tool calls' arguments, everything but quoted strings (JSON quotes
 * every key). Cached per message (E-M1: messages are values).
 */
export function mentionsOf(message: Message): readonly Mention[] {
  let found = cache.get(message);
  if (found) return found;
  const seen = new Map<string, Mention>();
  const add = (text: string, kind: MentionKind) => {
    const trimmed = text.trim();
    if (trimmed.length >= 4 && !seen.has(trimmed)) seen.set(trimmed, { text: trimmed, kind });
  };
  scan(message.content ?? "", true, add);
  for (const call of message.tool_calls ?? []) scan(call.function.arguments, false, add);
  found = Object.freeze([...seen.values()]);
  cache.set(message, found);
  return found;
}

function scan(text: string, quoted: boolean, add: (text: string, kind: MentionKind) => void): void {
  if (text === "") return;
  const urls = matches(text, URL);
  for (const url of urls) add(url, "url");
  // Parts of a URL are the URL's, not mentions of their own.
  const rest = urls.reduce((remaining, url) => remaining.split(url).join(" "), text);
  for (const file of matches(rest, FILE)) add(file, "file");
  const ids = matches(rest, ID);
  for (const id of ids) add(id, "id");
  for (const number of matches(rest, NUMBER)) if (!ids.some((id) => id.includes(number))) add(number, "number");
  if (!quoted) return;
  for (const match of rest.matchAll(QUOTED)) add(match[1] ?? match[2] ?? match[3], "quoted");
}

function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[0]);
}

const texts = new WeakMap<Message, string>();

/** The text a message shows the model: its content and its calls' names and arguments; cached per message (E-M1). */
export function searchableText(message: Message): string {
  let text = texts.get(message);
  if (text === undefined) {
    const calls = message.tool_calls ?? [];
    text =
      calls.length === 0
        ? (message.content ?? "")
        : [message.content ?? "", ...calls.map((call) => `${call.function.name} ${call.function.arguments}`)].join("\n");
    texts.set(message, text);
  }
  return text;
}

const occurrences = new WeakMap<readonly Message[], Map<string, readonly number[]>>();

/** Indices of the conversation's messages whose text holds `text`, ascending; found once per conversation and text. */
export function occurrencesOf(messages: readonly Message[], text: string): readonly number[] {
  let byText = occurrences.get(messages);
  if (!byText) {
    byText = new Map();
    occurrences.set(messages, byText);
  }
  let found = byText.get(text);
  if (!found) {
    const indices: number[] = [];
    messages.forEach((message, index) => {
      if (searchableText(message).includes(text)) indices.push(index);
    });
    found = indices;
    byText.set(text, found);
  }
  return found;
}
