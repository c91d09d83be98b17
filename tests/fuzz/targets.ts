import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { PRESETS } from "@/lib/context";
import { policyOfSettings } from "@/lib/policies";
import { DEFAULT_SETTINGS } from "@/lib/settings";
import { bodyText, importText, nasty, queryValue, ROUTE_FIELDS, VALID_BODIES } from "./bodies";
import type { FuzzIds } from "./fixtures";
import { sessionFileBodies } from "./session-bodies";

/**
 * Every route handler under app/api, found on disk (a route added later is
 * fuzzed without being listed here), with what it reads: which id each
 * path parameter names, its query parameters, the fields of its body.
 */

export const API_ROOT = path.join(import.meta.dirname, "..", "..", "app", "api");

/** The access token the fuzzed app is configured with (CONTEXT_LAB_TOKEN): `POST /api/login` accepts it. */
export const ACCESS_TOKEN = "fuzz-access-token-0123456789";

/** What kind of row a path parameter names (the fixture pool its real values come from). */
type IdKind = Exclude<keyof FuzzIds, "sessionFiles" | "localSession">;

export interface RouteSpec {
  /** Parameter name → the pool of real ids; absent parameters get random text only. */
  params?: Record<string, IdKind>;
  /** DELETE removes rows: it draws from the victims, so the fixtures stay for the routes after it. */
  deleteParams?: Record<string, IdKind>;
  query?: Record<string, (ids: FuzzIds) => fc.Arbitrary<string>>;
  /** Bodies by method (POST, PUT, PATCH, DELETE). */
  bodies?: Partial<Record<string, (ids: FuzzIds) => fc.Arbitrary<string>>>;
  contentType?: string;
  /** Its accepted requests write one branch's next turn, so concurrent ones would conflict (409): they are sent one at a time. */
  serial?: boolean;
  /** The least share of its requests answered 2xx: the run must exercise the accepting path, not only the refusals. */
  minAccepted?: number;
}

const ids = (kind: IdKind) => (pool: FuzzIds) => queryValue(pool[kind]);
const numbers = () => queryValue([]);
const oneOf =
  (...values: string[]) =>
  () =>
    fc.oneof(fc.constantFrom(...values), queryValue([]));
const shaped = (fields: Record<string, fc.Arbitrary<unknown>>, valid?: fc.Arbitrary<unknown>) => () => bodyText(fields, valid);
/** Each valid body of these goes to the (fake) upstream and back: one in twenty is enough to keep the path covered. */
const upstreamBound = (fields: Record<string, fc.Arbitrary<unknown>>, valid: fc.Arbitrary<unknown>) => () => bodyText(fields, valid, 1);

const POLICY = policyOfSettings(DEFAULT_SETTINGS);
const policyFields = { name: fc.string({ maxLength: 60 }), conversationId: fc.string({ maxLength: 30 }), policy: fc.oneof(fc.constant(POLICY), nasty) };
const validPolicy = fc.record({ name: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ""), policy: fc.constant(POLICY) });
const validModel = fc.record({
  label: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== ""),
  provider: fc.constant("other"),
  contextWindow: fc.integer({ min: 1_000, max: 2_000_000 }),
  maxOutputTokens: fc.integer({ min: 1, max: 100_000 }),
  tokenizer: fc.record({ encoding: fc.constantFrom("cl100k_base", "o200k_base"), exact: fc.boolean() }),
  mediaRule: fc.constant("openai"),
});
const modelFields = {
  label: fc.string({ maxLength: 40 }),
  provider: fc.constantFrom("openai", "anthropic", "other", "bogus"),
  contextWindow: fc.oneof(fc.integer(), fc.constantFrom(2 ** 31, 2 ** 53 + 1, 1e300)),
  maxOutputTokens: fc.integer(),
  tokenizer: fc.record({ encoding: fc.constantFrom("cl100k_base", "o200k_base", "nope"), exact: fc.boolean() }),
  mediaRule: fc.constantFrom("openai", "anthropic", "none"),
  prices: fc.record({ input: fc.double(), output: fc.double() }),
};
const navigator = { id: "navigator", label: "Navigator", policy: PRESETS.navigator.policy };
const replayFields = {
  policies: fc.oneof(
    fc.constant([navigator]),
    fc.array(fc.record({ id: fc.string({ maxLength: 8 }), label: fc.string({ maxLength: 8 }), policy: fc.oneof(nasty, fc.constant(PRESETS.copilot.policy)) }), {
      maxLength: 4,
    }),
  ),
  prices: fc.oneof(fc.constant(null), fc.record({ input: fc.double(), output: fc.double() })),
  keepMessages: fc.boolean(),
  tools: nasty,
};
const localPath = (pool: FuzzIds) => ({
  path: fc.oneof(
    fc.constantFrom(...pool.localSession),
    fc.string({ maxLength: 80 }),
    fc.constantFrom("/etc/passwd", "../../../etc/hosts", "~/.claude/projects/x.jsonl", ""),
  ),
});

/** Each route (its folder under app/api; the app server's own, lib/server/routes.ts, by their path under /api) and what it reads. */
export const ROUTE_SPECS: Record<string, RouteSpec> = {
  "[...path]": {},
  "branches/[branchId]": { params: { branchId: "branch" } },
  "branches/[branchId]/artifacts": { params: { branchId: "branch" } },
  "branches/[branchId]/artifacts/[artifactId]": { params: { branchId: "branch", artifactId: "artifact" } },
  "branches/[branchId]/chat": { params: { branchId: "branch" }, bodies: { POST: upstreamBound(ROUTE_FIELDS.chat, VALID_BODIES.chat) }, serial: true },
  "branches/[branchId]/checkpoints": { params: { branchId: "branch" } },
  "branches/[branchId]/compact": { params: { branchId: "branch" }, bodies: { POST: shaped(ROUTE_FIELDS.compact) } },
  "branches/[branchId]/export": {
    params: { branchId: "branch" },
    query: { format: oneOf("openai", "jsonl", "openai-responses", "anthropic", "gemini"), download: oneOf("true", "false") },
  },
  "branches/[branchId]/fork": { params: { branchId: "branch" }, bodies: { POST: shaped(ROUTE_FIELDS.fork, VALID_BODIES.fork) } },
  "branches/[branchId]/memory": { params: { branchId: "branch" } },
  "branches/[branchId]/messages": {
    params: { branchId: "branch" },
    query: { from: numbers, to: numbers, limit: numbers },
    bodies: { POST: shaped(ROUTE_FIELDS.appendMessages, VALID_BODIES.appendMessages) },
  },
  "branches/[branchId]/offloaded": { params: { branchId: "branch" } },
  "branches/[branchId]/offloaded/[handle]": { params: { branchId: "branch", handle: "handle" } },
  "branches/[branchId]/opening": { params: { branchId: "branch" } },
  "branches/[branchId]/prompt": { params: { branchId: "branch" }, query: { userTurn: () => queryValue([]) }, bodies: { POST: shaped(ROUTE_FIELDS.prompt) } },
  "branches/[branchId]/replay": {
    params: { branchId: "branch" },
    bodies: { POST: shaped(replayFields, fc.record({ policies: fc.constant([navigator]), keepMessages: fc.boolean() })) },
  },
  "branches/[branchId]/search": { params: { branchId: "branch" }, query: { q: () => queryValue(["Boston", "fare"]), limit: numbers } },
  "branches/[branchId]/summaries": { params: { branchId: "branch" } },
  "calls/[callId]": { params: { callId: "call" } },
  "checkpoints/[id]": { params: { id: "checkpoint" } },
  "checkpoints/diff": { query: { from: ids("checkpoint"), to: ids("checkpoint") } },
  conversations: {
    query: {
      q: () => queryValue(["refund", "2026-11", "gpt-4o"]),
      source: oneOf("import", "proxy", "agent"),
      failed: oneOf("true", "false"),
      overBudget: oneOf("true", "false"),
      sort: oneOf("updated", "created", "title", "messages", "tokens"),
      order: oneOf("asc", "desc"),
      limit: numbers,
      offset: numbers,
    },
    bodies: { POST: shaped(ROUTE_FIELDS.createConversation, VALID_BODIES.createConversation) },
  },
  "conversations/[id]": {
    params: { id: "conversation" },
    deleteParams: { id: "victim" },
    bodies: { PATCH: shaped(ROUTE_FIELDS.updateConversation), DELETE: () => fc.constantFrom("", "{}", "[") },
  },
  "conversations/[id]/branches": { params: { id: "conversation" } },
  "conversations/[id]/calls": { params: { id: "conversation" }, query: { after: ids("call"), limit: numbers, failed: oneOf("true", "false") } },
  "conversations/[id]/cost": { params: { id: "conversation" }, query: { subagents: oneOf("true", "false") } },
  "conversations/[id]/overview": { params: { id: "conversation" }, query: { branch: ids("branch") } },
  "conversations/import": {
    query: {
      filename: oneOf("chat.json", "session.jsonl", "x"),
      format: oneOf("auto", "openai", "jsonl", "anthropic", "tau-bench", "claude-code"),
      title: () => queryValue(["Imported"]),
      conversation: oneOf("all", "0", "1"),
    },
    bodies: { POST: () => importText },
    contentType: "application/x-ndjson",
  },
  health: {},
  "live/conversations": {},
  "live/conversations/[id]": { params: { id: "conversation" } },
  "local-agents": {},
  "local-agents/follow": {
    query: { conversation: ids("conversation") },
    bodies: { POST: (pool) => bodyText(localPath(pool), fc.record(localPath(pool))), DELETE: (pool) => bodyText(localPath(pool)) },
  },
  "local-agents/import": { bodies: { POST: (pool) => bodyText(localPath(pool), fc.record(localPath(pool))) } },
  "local-agents/unfollow": { bodies: { POST: (pool) => bodyText({ ...localPath(pool), conversationId: fc.constantFrom(...pool.conversation) }) } },
  login: {
    bodies: { POST: shaped(ROUTE_FIELDS.login, fc.record({ token: fc.constant(ACCESS_TOKEN) })), DELETE: () => fc.constantFrom("", "{}") },
    minAccepted: 0.1,
  },
  models: {},
  "models/[id]": {
    params: { id: "model" },
    deleteParams: { id: "model" },
    bodies: { PUT: shaped(modelFields, validModel), DELETE: () => fc.constantFrom("", "{}") },
  },
  policies: { query: { conversationId: ids("conversation") }, bodies: { POST: shaped(policyFields, validPolicy) } },
  "policies/[id]": { params: { id: "policy" }, bodies: { PATCH: shaped(policyFields, validPolicy), DELETE: () => fc.constantFrom("", "{}") } },
  "policies/[id]/export": { params: { id: "policy" }, query: { format: oneOf("json", "typescript") } },
  "policies/diff": { query: { from: ids("policy"), to: ids("policy") } },
  sessions: { bodies: { POST: (pool) => sessionFileBodies(pool.sessionFiles) }, contentType: "application/x-ndjson", minAccepted: 0.1 },
  "sessions/[conversationId]": { params: { conversationId: "conversation" } },
  "settings/upstream": { bodies: { PUT: shaped(ROUTE_FIELDS.upstream) } },
  "v1/[...path]": {},
  "v1/chat/completions": { bodies: { POST: upstreamBound(ROUTE_FIELDS.proxyChat, VALID_BODIES.proxyChat) } },
  "v1/embeddings": { bodies: { POST: shaped({ model: fc.string({ maxLength: 20 }), input: fc.oneof(fc.string({ maxLength: 60 }), nasty) }) } },
  "v1/messages": { bodies: { POST: upstreamBound(ROUTE_FIELDS.proxyMessages, VALID_BODIES.proxyMessages) } },
  "v1/messages/count_tokens": { bodies: { POST: shaped(ROUTE_FIELDS.proxyMessages) } },
  "v1/models": {},
  "v1/responses": { bodies: { POST: upstreamBound(ROUTE_FIELDS.proxyResponses, VALID_BODIES.proxyResponses) } },
};

/** Each route file's folder under app/api (`branches/[branchId]/messages`), sorted. */
export function routeFolders(): string[] {
  return fs
    .readdirSync(API_ROOT, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => path.dirname(file).split(path.sep).join("/"))
    .map((folder) => (folder === "." ? "" : folder))
    .sort();
}

/** The parameter names of a route folder, in order: `branches/[branchId]/offloaded/[handle]` → branchId, handle. */
export function paramNames(folder: string): string[] {
  return [...folder.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((match) => match[1]);
}

/** A path of the folder with the given params, each segment escaped as a client would send it. */
export function pathOf(folder: string, params: Record<string, string>): string {
  const segments = folder.split("/").map((segment) => {
    const name = /^\[(?:\.\.\.)?(\w+)\]$/.exec(segment)?.[1];
    if (name === undefined) return segment;
    return segment.startsWith("[...") ? params[name].split("/").map(encodeURIComponent).join("/") : encodeURIComponent(params[name]);
  });
  return `/api/${segments.join("/")}`;
}
