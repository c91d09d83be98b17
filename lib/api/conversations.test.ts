import { describe, expect, it } from "vitest";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as branchesRoute from "@/app/api/conversations/[id]/branches/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { DEFAULT_SETTINGS } from "@/lib/settings";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

const toolExchange = [
  { role: "system", content: "You are an airline agent." },
  { role: "user", content: "Where is my bag?" },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "find_bag", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "call_1", content: "in Paris" },
  { role: "assistant", content: "Your bag is in Paris." },
];

describe.each(TEST_PROVIDERS)("conversations API (%s)", (provider) => {
  useApiTestDatabase(provider);

  it("creates a conversation with messages, counted tokens and default settings", async () => {
    const { status, body } = await call(conversationsRoute.POST, {
      body: { title: "Bag", messages: toolExchange, settings: { mode: "navigator", tokenBudget: 8000 } },
    });
    expect(status).toBe(201);
    expect(body.conversation).toMatchObject({ title: "Bag", source: "api", tools: null });
    // A mode brings its preset's rounds and thresholds.
    expect(body.conversation.settings).toEqual({
      ...DEFAULT_SETTINGS,
      mode: "navigator",
      historyRounds: 10,
      summaryThreshold: 5,
      offloadThreshold: 20,
      tokenBudget: 8000,
    });
    expect(body.branch).toMatchObject({ name: "main", length: 5, parentId: null });
    expect(body.messages.map((record: { position: number }) => record.position)).toEqual([0, 1, 2, 3, 4]);
    expect(body.messages.every((record: { tokens: number }) => record.tokens > 3)).toBe(true);
    expect(body.messages[2].message).toEqual(toolExchange[2]);
  });

  it("names the offending field of a bad message by its path", async () => {
    const messages = [...toolExchange.slice(0, 3), { role: "tool", content: "in Paris" }];
    const { status, body } = await call(conversationsRoute.POST, { body: { title: "Bag", messages } });
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.issues).toContainEqual(expect.objectContaining({ path: "messages[3].tool_call_id", messageIndex: 3 }));
    expect(body.error.message).toContain("messages[3].tool_call_id");
  });

  it("refuses unknown roles, unknown fields, a missing title and bad settings, each at its path", async () => {
    const { body } = await call(conversationsRoute.POST, {
      body: {
        messages: [
          { role: "robot", content: "x" },
          { role: "user", content: "hi", extra: 1 },
        ],
        settings: { mode: "autopilot", tokenBudget: -5 },
      },
    });
    const paths = body.error.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["title", "messages[0].role", "messages[1]", "settings.mode", "settings.tokenBudget"]));
  });

  it("refuses broken tool pairing with 422 and the message index", async () => {
    const messages = [toolExchange[1], { role: "tool", tool_call_id: "call_9", content: "stray" }, toolExchange[4]];
    const { status, body } = await call(conversationsRoute.POST, { body: { title: "Stray", messages } });
    expect(status).toBe(422);
    expect(body.error).toMatchObject({ code: "tool_pairing", issues: [{ path: "messages[1]", messageIndex: 1 }] });
    const list = await call(conversationsRoute.GET);
    expect(list.body.conversations).toEqual([]);
  });

  it("reports malformed JSON with its line and column", async () => {
    const { status, body } = await call(conversationsRoute.POST, { body: '{\n  "title": "x",\n  "messages": [\n}' });
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid_json");
    expect(body.error.issues[0]).toMatchObject({ line: 4, column: 1 });
    expect(body.error.message).toMatch(/line 4, column 1/);
  });

  it("lists conversations with counts, newest first, paged", async () => {
    for (const title of ["one", "two", "three"]) {
      await call(conversationsRoute.POST, { body: { title, messages: [{ role: "user", content: title }] } });
    }
    const { status, body } = await call(conversationsRoute.GET, { url: "/api/conversations?limit=2&offset=1" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ limit: 2, offset: 1 });
    expect(body.conversations.map((row: { title: string }) => row.title)).toEqual(["two", "one"]);
    expect(body.conversations[0]).toMatchObject({ messageCount: 1, branchCount: 1 });
    const bad = await call(conversationsRoute.GET, { url: "/api/conversations?limit=abc&offset=-1" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((issue: { path: string }) => issue.path)).toEqual(["limit", "offset"]);
  });

  it("gets a conversation with its branch tree, and the tree alone", async () => {
    const created = await call(conversationsRoute.POST, { body: { title: "Tree" } });
    const id = created.body.conversation.id;
    const { status, body } = await call(conversationRoute.GET, { params: { id } });
    expect(status).toBe(200);
    expect(body.conversation.id).toBe(id);
    expect(body.branches).toEqual([expect.objectContaining({ id: created.body.branch.id, children: [] })]);
    const tree = await call(branchesRoute.GET, { params: { id } });
    expect(tree.body.branches).toEqual(body.branches);
  });

  it("patches title, tools and settings, merging settings over the stored ones", async () => {
    const created = await call(conversationsRoute.POST, { body: { title: "Before", settings: { tokenBudget: 9000 } } });
    const id = created.body.conversation.id;
    const tools = [{ type: "function", function: { name: "find_bag", parameters: { type: "object", properties: {} } } }];
    const { status, body } = await call(conversationRoute.PATCH, {
      method: "PATCH",
      params: { id },
      body: { title: "After", tools, settings: { mode: "pilot" } },
    });
    expect(status).toBe(200);
    expect(body.conversation).toMatchObject({ title: "After", tools });
    expect(body.conversation.settings).toMatchObject({ mode: "pilot", historyRounds: 100, summaryThreshold: null, tokenBudget: 9000 });
    const own = await call(conversationRoute.PATCH, { method: "PATCH", params: { id }, body: { settings: { mode: "navigator", historyRounds: 3 } } });
    expect(own.body.conversation.settings).toMatchObject({ mode: "navigator", historyRounds: 3, summaryThreshold: 5, tokenBudget: 9000 });
    const cleared = await call(conversationRoute.PATCH, { method: "PATCH", params: { id }, body: { tools: null } });
    expect(cleared.body.conversation.tools).toBeNull();
    const proxy = await call(conversationRoute.PATCH, {
      method: "PATCH",
      params: { id },
      body: { settings: { applyPipeline: true, encoding: "cl100k_base" } },
    });
    expect(proxy.body.conversation.settings).toMatchObject({ applyPipeline: true, encoding: "cl100k_base", mode: "navigator" });
    // ST-3: null clears a field: the encoding follows the model again.
    const unset = await call(conversationRoute.PATCH, { method: "PATCH", params: { id }, body: { settings: { encoding: null } } });
    expect(unset.body.conversation.settings.encoding).toBeNull();
    const invalid = await call(conversationRoute.PATCH, { method: "PATCH", params: { id }, body: { settings: { historyRounds: 0 } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.issues[0].path).toBe("settings.historyRounds");
  });

  it("[ST-1] refuses duplicated or unknown processors and a budget of 0, naming the field, and stores nothing", async () => {
    const created = await call(conversationsRoute.POST, { body: { title: "Strict" } });
    const id = created.body.conversation.id;
    const refused = async (settings: unknown) => {
      const response = await call(conversationRoute.PATCH, { method: "PATCH", params: { id }, body: { settings } });
      expect(response.status).toBe(400);
      return response.body.error.issues.map((issue: { path: string }) => issue.path);
    };
    expect(
      await refused({
        processors: [
          { kind: "round_window", enabled: true },
          { kind: "round_window", enabled: true },
        ],
      }),
    ).toEqual(["settings.processors[1].kind"]);
    expect(await refused({ processors: [{ kind: "shredder", enabled: true }] })).toEqual(["settings.processors[0].kind"]);
    expect(await refused({ tokenBudget: 0 })).toEqual(["settings.tokenBudget"]);
    const detail = await call(conversationRoute.GET, { params: { id } });
    expect(detail.body.conversation.settings).toEqual(DEFAULT_SETTINGS);
  });

  it("deletes with 204, then answers 404 naming the conversation", async () => {
    const created = await call(conversationsRoute.POST, { body: { title: "Gone" } });
    const id = created.body.conversation.id;
    const deleted = await call(conversationRoute.DELETE, { method: "DELETE", params: { id } });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    for (const handler of [conversationRoute.GET, conversationRoute.DELETE, branchesRoute.GET]) {
      const { status, body } = await call(handler, { method: handler === conversationRoute.DELETE ? "DELETE" : "GET", params: { id } });
      expect(status).toBe(404);
      expect(body.error).toMatchObject({ code: "not_found", resource: "conversation", id });
    }
    const patched = await call(conversationRoute.PATCH, { method: "PATCH", params: { id }, body: { title: "x" } });
    expect(patched.status).toBe(404);
  });
});
