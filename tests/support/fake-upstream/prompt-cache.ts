import { sharedCounter, type Message, type ToolDefinition } from "@/lib/context";
import { readRequest } from "@/lib/formats";

/**
 * The fake upstream's prompt cache: it reports cache reads and writes the way
 * the providers do. Anthropic caches the prefix up to each `cache_control`
 * mark (tools, then system, then messages), at least `minimumTokens` long,
 * for 5 minutes or an hour from its last use, and finds an earlier prefix up
 * to 20 blocks back from a mark; OpenAI caches every prompt of 1,024 tokens
 * or more and reports hits in 128-token steps, kept 5 minutes idle. A block
 * is a tool definition or a message (a mark on any part of a message marks
 * its end); tokens are the engine's o200k counts of each block. Time is the
 * test's clock.
 */

/** What one request read and wrote. */
export interface FakeCacheUsage {
  prompt: number;
  read: number;
  write5m: number;
  write1h: number;
}

export interface FakePromptCacheOptions {
  /** Epoch milliseconds: the clock the test controls. */
  now: () => number;
  /** Anthropic's minimum cacheable prefix (default 1,024, Sonnet 4.5's). */
  anthropicMinimum?: number;
}

interface Block {
  key: string;
  tokens: number;
  mark: "5m" | "1h" | null;
}

interface Stored {
  ttlMs: number;
  lastUsed: number;
}

const MINUTE = 60_000;
const OPENAI_MINIMUM = 1024;
const OPENAI_STEP = 128;
const LOOKBACK = 20;

function strip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, field) => (key === "cache_control" || key === "cacheControl" ? undefined : field)));
}

function markOf(value: { cache_control?: { ttl?: string }; parts?: readonly object[] }): "5m" | "1h" | null {
  const partMarks = (value.parts ?? []).map((part) => ("cacheControl" in part ? (part.cacheControl as { ttl?: string } | undefined) : undefined));
  const marks = [value.cache_control, ...partMarks].filter((mark) => mark !== undefined);
  const last = marks.at(-1);
  return last === undefined ? null : last.ttl === "1h" ? "1h" : "5m";
}

function blocksOf(messages: readonly Message[], tools: readonly ToolDefinition[]): Block[] {
  const counter = sharedCounter("o200k_base");
  return [
    ...tools.map((tool) => ({ key: JSON.stringify(strip(tool)), tokens: counter.countTools([tool]), mark: markOf(tool) })),
    ...messages.map((message) => ({ key: JSON.stringify(strip(message)), tokens: counter.countMessage(message), mark: markOf(message) })),
  ];
}

export class FakePromptCache {
  private readonly entries = new Map<string, Stored>();

  constructor(private readonly options: FakePromptCacheOptions) {}

  /** The cache usage of a chat-completions or Messages request, and what it leaves cached. */
  account(protocol: "chat" | "anthropic", body: unknown): FakeCacheUsage {
    const read = readRequest(protocol === "chat" ? "openai-chat" : "anthropic", body);
    const blocks = blocksOf(read.messages, read.tools ?? []);
    return protocol === "chat" ? this.automatic(blocks) : this.marked(blocks);
  }

  private prefixes(blocks: readonly Block[]): { key: string; tokens: number }[] {
    let key = "";
    let tokens = 0;
    return blocks.map((block) => {
      key += `\u0000${block.key}`;
      tokens += block.tokens;
      return { key, tokens };
    });
  }

  private live(key: string, now: number): Stored | undefined {
    const stored = this.entries.get(key);
    if (stored === undefined || now - stored.lastUsed > stored.ttlMs) return undefined;
    return stored;
  }

  private marked(blocks: readonly Block[]): FakeCacheUsage {
    const now = this.options.now();
    const minimum = this.options.anthropicMinimum ?? 1024;
    const prefixes = this.prefixes(blocks);
    const prompt = prefixes.at(-1)?.tokens ?? 0;
    let hit = -1;
    blocks.forEach((block, mark) => {
      if (block.mark === null) return;
      for (let index = mark; index >= Math.max(0, mark - LOOKBACK) && index > hit; index -= 1) {
        if (this.live(prefixes[index].key, now) !== undefined) {
          hit = index;
          return;
        }
      }
    });
    for (let index = 0; index <= hit; index += 1) {
      const stored = this.live(prefixes[index].key, now);
      if (stored !== undefined) stored.lastUsed = now;
    }
    const usage: FakeCacheUsage = { prompt, read: hit >= 0 ? prefixes[hit].tokens : 0, write5m: 0, write1h: 0 };
    let cached = usage.read;
    blocks.forEach((block, index) => {
      if (block.mark === null || index <= hit || prefixes[index].tokens < minimum) return;
      const written = prefixes[index].tokens - cached;
      if (block.mark === "1h") usage.write1h += written;
      else usage.write5m += written;
      cached = prefixes[index].tokens;
      this.entries.set(prefixes[index].key, { ttlMs: (block.mark === "1h" ? 60 : 5) * MINUTE, lastUsed: now });
    });
    return usage;
  }

  private automatic(blocks: readonly Block[]): FakeCacheUsage {
    const now = this.options.now();
    const prefixes = this.prefixes(blocks);
    const prompt = prefixes.at(-1)?.tokens ?? 0;
    if (prompt < OPENAI_MINIMUM) return { prompt, read: 0, write5m: 0, write1h: 0 };
    const matched = [...prefixes].reverse().find((prefix) => this.live(prefix.key, now) !== undefined)?.tokens ?? 0;
    const read = matched < OPENAI_MINIMUM ? 0 : OPENAI_MINIMUM + Math.floor((matched - OPENAI_MINIMUM) / OPENAI_STEP) * OPENAI_STEP;
    for (const prefix of prefixes) if (prefix.tokens >= OPENAI_MINIMUM) this.entries.set(prefix.key, { ttlMs: 5 * MINUTE, lastUsed: now });
    return { prompt, read, write5m: 0, write1h: 0 };
  }
}
