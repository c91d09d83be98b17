import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { ImportError, IMPORT_FORMATS, parseConversations } from "./index";

// [IM-8] Any sample with any one value replaced imports or is refused with an ImportError: no importer throws anything else.
const files = [
  "claude-code-short.jsonl",
  "claude-code-sidechain-compact.jsonl",
  "codex-rollout-simonw.jsonl",
  "openai-responses-request.json",
  "vercel-ai-ui-messages.json",
  "ai-sdk-model-messages.json",
  "langchain-lc-serialized.json",
  "langchain-messages-to-dict.json",
  "gemini-contents.json",
  "sharegpt-glaive-toolcall.json",
  "openai-batch-input.jsonl",
  "litellm-standard-logging-payload.json",
  "langfuse-trace.json",
  "otel-genai-otlp.json",
  "otel-genai-legacy-attributes.json",
  "cline-api-conversation-history.json",
  "cline-xml-tools-api-history.json",
  "cline-ui-messages.json",
  "gemini-cli-session.json",
  "gemini-cli-chat-share.json",
  "otel-openllmetry-anthropic-spans.json",
  "helicone-query-rows.json",
  "mcp-jsonrpc-session.jsonl",
];

/** Every path to a value inside `value`. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const inner = Array.isArray(value)
    ? value.flatMap((item, index) => paths(item, [...at, index]))
    : typeof value === "object" && value !== null
      ? Object.entries(value).flatMap(([key, item]) => paths(item, [...at, key]))
      : [];
  return [at, ...inner];
}

function replaced(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[path[0]] = replaced(copy[path[0]], path.slice(1), replacement);
  return copy;
}

const replacements = fc.constantFrom<unknown>(null, 0, -1, "", "x", true, [], {}, [null], { type: "text" }, { role: "user" });

function parseOrRefuse(text: string, format?: (typeof IMPORT_FORMATS)[number]): void {
  try {
    parseConversations(text, format === undefined ? {} : { format });
  } catch (error) {
    if (!ImportError.isInstance(error)) throw error;
  }
}

describe("robustness", () => {
  for (const file of files) {
    it(`[IM-8] ${file} with any one value replaced imports or is refused, never crashes`, () => {
      const text = readFixture(`formats/${file}`);
      const lines = file.endsWith(".jsonl");
      const document: unknown = lines
        ? text
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line) as unknown)
        : JSON.parse(text);
      const all = paths(document);
      fc.assert(
        fc.property(
          fc.nat(all.length - 1),
          replacements,
          fc.constantFrom<(typeof IMPORT_FORMATS)[number] | undefined>(undefined, ...IMPORT_FORMATS),
          (pick, replacement, format) => {
            const changed = replaced(document, all[pick], replacement);
            const written = lines && Array.isArray(changed) ? changed.map((line) => JSON.stringify(line)).join("\n") : JSON.stringify(changed);
            parseOrRefuse(written, format);
          },
        ),
        { numRuns: 300, seed: 20_261_123 },
      );
      expect(all.length).toBeGreaterThan(0);
    });
  }
});
