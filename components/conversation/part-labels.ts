import { partTokens, type ContentPart, type MediaRule, type MediaSource } from "@/lib/context/light";

// Labels for what a message holds besides text. The page has no tokenizer:
// media costs follow the provider's rule exactly; text inside parts is
// estimated at four characters a token and marked so.

const estimateText = (text: string) => Math.ceil(text.length / 4);
const number = (value: number) => value.toLocaleString("en");

/** "765 tok", or "≈1,500 tok" when a default or an estimate stood in. */
export function partCostLabel(part: ContentPart, rule: MediaRule): string {
  const { tokens, approximate } = partTokens(part, rule, estimateText);
  const estimated = approximate || part.type === "reasoning" || part.type === "refusal" || (part.type === "document" && part.source.type === "text");
  return `${estimated ? "≈" : ""}${number(tokens)} tok`;
}

/** A data URL or web URL an `<img>` can show; undefined for file ids and text. */
export function imageUrl(source: MediaSource): string | undefined {
  if (source.type === "base64") return `data:${source.mediaType};base64,${source.data}`;
  if (source.type === "url" && /^(https?|data):/i.test(source.url)) return source.url;
  return undefined;
}

/** Where a medium lives, in a few words: "image/png, 12 KB", "file file-abc", "example.com". */
export function sourceLabel(source: MediaSource): string {
  switch (source.type) {
    case "base64":
      return `${source.mediaType}, ${bytesLabel(Math.floor((source.data.length * 3) / 4))}`;
    case "url":
      return hostOf(source.url);
    case "file":
      return `file ${source.fileId}`;
    case "text":
      return `text, ${number(source.text.length)} characters`;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url.slice(0, 40);
  } catch {
    return url.slice(0, 40);
  }
}

function bytesLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** What a provider's own block is called: its type, and the tool it ran when it names one. */
export function providerLabel(data: Readonly<Record<string, unknown>>): string {
  const type = typeof data.type === "string" ? data.type : "block";
  return typeof data.name === "string" ? `${type} · ${data.name}` : type;
}
