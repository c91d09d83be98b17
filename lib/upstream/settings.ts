import fs from "node:fs";
import path from "node:path";

/**
 * Where the proxy forwards to. The environment wins over the settings page
 * (`CONTEXT_LAB_UPSTREAM_BASE_URL`, `CONTEXT_LAB_UPSTREAM_API_KEY`,
 * `CONTEXT_LAB_UPSTREAM_TIMEOUT_MS`), field by field; the page's values live
 * in a JSON file readable only by the server's user
 * (`CONTEXT_LAB_UPSTREAM_SETTINGS_FILE`, default `data/upstream.json`). The
 * key never leaves the server: `describeUpstream` shows only its last 4 characters.
 */
export interface UpstreamConfig {
  /** Ends before `/chat/completions`: `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string | null;
  /** Longest wait for the response headers, and between two chunks of a stream. */
  timeoutMs: number;
}

export type SettingSource = "environment" | "settings" | null;

/** What the settings endpoint shows: never the key. */
export interface UpstreamSettingsView {
  baseUrl: string | null;
  baseUrlSource: SettingSource;
  apiKey: { set: boolean; last4: string | null; source: SettingSource };
  timeoutMs: number;
  timeoutSource: SettingSource | "default";
  /** True when a chat completion can be forwarded. */
  configured: boolean;
  /** Where `/v1/messages` goes (P-A3); it shares the timeout. */
  anthropic: AnthropicUpstreamView;
}

/** The Anthropic upstream as the settings endpoint shows it: never the key. */
export interface AnthropicUpstreamView {
  baseUrl: string | null;
  baseUrlSource: SettingSource;
  apiKey: { set: boolean; last4: string | null; source: SettingSource };
  configured: boolean;
}

/** Fields saved from the settings page; `null` clears one. */
export interface UpstreamSettingsChanges {
  baseUrl?: string | null;
  apiKey?: string | null;
  timeoutMs?: number | null;
  anthropic?: { baseUrl?: string | null; apiKey?: string | null };
}

interface StoredSettings {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  anthropic?: { baseUrl?: string; apiKey?: string };
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 600_000;

export function upstreamSettingsFile(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), process.env.CONTEXT_LAB_UPSTREAM_SETTINGS_FILE || "data/upstream.json");
}

const CACHE_KEY = Symbol.for("context-lab.proxy.upstream-settings");
const globalForSettings = globalThis as typeof globalThis & { [CACHE_KEY]?: { file: string; stamp: string; settings: StoredSettings } };

/** The stored settings, re-read only when the file changed (one stat per request). */
function readStored(): StoredSettings {
  const file = upstreamSettingsFile();
  let stat: fs.Stats | undefined;
  try {
    // No file is the usual case (settings from the environment): asked without an exception per request.
    stat = fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return {};
  }
  if (!stat) return {};
  const stamp = `${stat.mtimeMs}:${stat.size}`;
  const cached = globalForSettings[CACHE_KEY];
  if (cached && cached.file === file && cached.stamp === stamp) return cached.settings;
  let settings: StoredSettings = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (typeof parsed === "object" && parsed !== null) settings = parsed as StoredSettings;
  } catch (error) {
    console.error(`[proxy] ignoring unreadable upstream settings ${file}:`, error);
  }
  globalForSettings[CACHE_KEY] = { file, stamp, settings };
  return settings;
}

/** `https://host/v1/` → `https://host/v1`; throws on anything but an http(s) URL. */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`upstream base URL '${value}' is not a URL: give one like https://api.openai.com/v1`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`upstream base URL '${value}' must start with http:// or https://`);
  }
  return url.toString().replace(/\/+$/, "");
}

function environment() {
  const timeout = Number(process.env.CONTEXT_LAB_UPSTREAM_TIMEOUT_MS);
  return {
    baseUrl: process.env.CONTEXT_LAB_UPSTREAM_BASE_URL?.trim() || undefined,
    apiKey: process.env.CONTEXT_LAB_UPSTREAM_API_KEY?.trim() || undefined,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
    anthropicBaseUrl: process.env.CONTEXT_LAB_ANTHROPIC_BASE_URL?.trim() || undefined,
    anthropicApiKey: process.env.CONTEXT_LAB_ANTHROPIC_API_KEY?.trim() || undefined,
  };
}

/** The upstream to forward to, or null when no base URL is configured anywhere. */
export function resolveUpstream(): UpstreamConfig | null {
  const env = environment();
  const stored = readStored();
  const baseUrl = env.baseUrl ?? stored.baseUrl;
  if (!baseUrl) return null;
  return {
    baseUrl: normalizeBaseUrl(baseUrl),
    apiKey: env.apiKey ?? stored.apiKey ?? null,
    timeoutMs: env.timeoutMs ?? stored.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
  };
}

/**
 * The Anthropic upstream (`CONTEXT_LAB_ANTHROPIC_BASE_URL`, `CONTEXT_LAB_ANTHROPIC_API_KEY`,
 * else the settings page's), or null. Its base URL ends before `/v1/messages`,
 * as the Anthropic SDK's does: `https://api.anthropic.com`.
 */
export function resolveAnthropicUpstream(): UpstreamConfig | null {
  const env = environment();
  const stored = readStored();
  const baseUrl = env.anthropicBaseUrl ?? stored.anthropic?.baseUrl;
  if (!baseUrl) return null;
  return {
    baseUrl: normalizeBaseUrl(baseUrl),
    apiKey: env.anthropicApiKey ?? stored.anthropic?.apiKey ?? null,
    timeoutMs: env.timeoutMs ?? stored.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
  };
}

function sourceOf(fromEnvironment: unknown, fromSettings: unknown): SettingSource {
  return fromEnvironment !== undefined ? "environment" : fromSettings !== undefined ? "settings" : null;
}

/** The key's last 4 characters, or null when the key is too short for that to hide most of it. */
function lastFour(apiKey: string | null): string | null {
  return apiKey !== null && apiKey.length >= 12 ? apiKey.slice(-4) : null;
}

export function describeUpstream(): UpstreamSettingsView {
  const env = environment();
  const stored = readStored();
  const apiKey = env.apiKey ?? stored.apiKey ?? null;
  const baseUrl = env.baseUrl ?? stored.baseUrl ?? null;
  const timeoutSource = sourceOf(env.timeoutMs, stored.timeoutMs);
  return {
    baseUrl,
    baseUrlSource: sourceOf(env.baseUrl, stored.baseUrl),
    apiKey: { set: apiKey !== null, last4: lastFour(apiKey), source: sourceOf(env.apiKey, stored.apiKey) },
    timeoutMs: env.timeoutMs ?? stored.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    timeoutSource: timeoutSource ?? "default",
    configured: baseUrl !== null,
    anthropic: describeAnthropic(env, stored),
  };
}

function describeAnthropic(env: ReturnType<typeof environment>, stored: StoredSettings): AnthropicUpstreamView {
  const apiKey = env.anthropicApiKey ?? stored.anthropic?.apiKey ?? null;
  const baseUrl = env.anthropicBaseUrl ?? stored.anthropic?.baseUrl ?? null;
  return {
    baseUrl,
    baseUrlSource: sourceOf(env.anthropicBaseUrl, stored.anthropic?.baseUrl),
    apiKey: { set: apiKey !== null, last4: lastFour(apiKey), source: sourceOf(env.anthropicApiKey, stored.anthropic?.apiKey) },
    configured: baseUrl !== null,
  };
}

/**
 * Saves the settings page's fields (absent ones stay, `null` clears) and
 * returns the new view. The file is replaced atomically with mode 0600.
 */
export function saveUpstreamSettings(changes: UpstreamSettingsChanges): UpstreamSettingsView {
  const next: StoredSettings = { ...readStored() };
  if (changes.baseUrl !== undefined) {
    if (changes.baseUrl === null || changes.baseUrl.trim() === "") delete next.baseUrl;
    else next.baseUrl = normalizeBaseUrl(changes.baseUrl);
  }
  if (changes.apiKey !== undefined) {
    if (changes.apiKey === null || changes.apiKey.trim() === "") delete next.apiKey;
    else next.apiKey = changes.apiKey.trim();
  }
  if (changes.timeoutMs !== undefined) {
    if (changes.timeoutMs === null) delete next.timeoutMs;
    else next.timeoutMs = changes.timeoutMs;
  }
  if (changes.anthropic !== undefined) next.anthropic = anthropicChanged(next.anthropic ?? {}, changes.anthropic);
  if (next.anthropic && Object.keys(next.anthropic).length === 0) delete next.anthropic;
  const file = upstreamSettingsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  delete globalForSettings[CACHE_KEY];
  return describeUpstream();
}

function anthropicChanged(current: NonNullable<StoredSettings["anthropic"]>, changes: NonNullable<UpstreamSettingsChanges["anthropic"]>) {
  const next = { ...current };
  if (changes.baseUrl !== undefined) {
    if (changes.baseUrl === null || changes.baseUrl.trim() === "") delete next.baseUrl;
    else next.baseUrl = normalizeBaseUrl(changes.baseUrl);
  }
  if (changes.apiKey !== undefined) {
    if (changes.apiKey === null || changes.apiKey.trim() === "") delete next.apiKey;
    else next.apiKey = changes.apiKey.trim();
  }
  return next;
}
