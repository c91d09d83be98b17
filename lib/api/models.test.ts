import { describe, expect, it } from "vitest";
import * as modelRoute from "@/app/api/models/[id]/route";
import * as modelsRoute from "@/app/api/models/route";
import * as promptRoute from "@/app/api/branches/[branchId]/prompt/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { BUILT_IN_MODELS } from "@/lib/models";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

const input = {
  label: "Acme 7B",
  provider: "other",
  contextWindow: 32_000,
  maxOutputTokens: 2_000,
  tokenizer: { encoding: "cl100k_base", exact: false, note: "Acme's own vocabulary" },
  mediaRule: "openai",
  prices: { input: 0.2, output: 0.4 },
};

describe.each(TEST_PROVIDERS)("models API (%s)", (provider) => {
  useApiTestDatabase(provider);

  it("[MC-1] lists the built-in catalogue with the date its figures were taken", async () => {
    const { status, body } = await call(modelsRoute.GET);
    expect(status).toBe(200);
    expect(body.models).toHaveLength(BUILT_IN_MODELS.length);
    expect(body.takenAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("[MC-3] adds a model and edits a built-in one; requests are budgeted with the user's figures at once; deleting gives the built-in back", async () => {
    const added = await call(modelRoute.PUT, { method: "PUT", params: { id: "acme-7b" }, body: input });
    expect(added.status).toBe(200);
    expect(added.body.model).toMatchObject({ id: "acme-7b", origin: "custom", contextWindow: 32_000 });
    const edited = await call(modelRoute.PUT, {
      method: "PUT",
      params: { id: "gpt-4o" },
      body: { ...input, label: "GPT-4o (our contract)", contextWindow: 64_000, tokenizer: { encoding: "o200k_base", exact: true } },
    });
    expect(edited.status).toBe(200);
    const listed = (await call(modelsRoute.GET)).body.models as { id: string; origin: string; contextWindow: number }[];
    expect(listed).toHaveLength(BUILT_IN_MODELS.length + 1);
    expect(listed.find((entry) => entry.id === "gpt-4o")).toMatchObject({ origin: "custom", contextWindow: 64_000 });

    const created = await call(conversationsRoute.POST, {
      body: { title: "t", messages: [{ role: "user", content: "hello" }], settings: { model: "gpt-4o" } },
    });
    const branchId = created.body.branch.id;
    expect((await call(promptRoute.GET, { params: { branchId } })).body.verdict.contextWindow).toBe(64_000);

    expect((await call(modelRoute.DELETE, { method: "DELETE", params: { id: "gpt-4o" } })).status).toBe(204);
    expect((await call(promptRoute.GET, { params: { branchId } })).body.verdict.contextWindow).toBe(128_000);
    expect((await call(modelRoute.DELETE, { method: "DELETE", params: { id: "gpt-4o" } })).status).toBe(404);
  });

  it("refuses an entry that breaks the schema, naming the field", async () => {
    const bad = await call(modelRoute.PUT, {
      method: "PUT",
      params: { id: "acme-7b" },
      body: { ...input, contextWindow: 0, prices: { input: -1, output: 1 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((issue: { path: string }) => issue.path)).toEqual(["contextWindow", "prices.input"]);
    const badId = await call(modelRoute.PUT, { method: "PUT", params: { id: "has spaces" }, body: input });
    expect(badId.status).toBe(400);
    expect(badId.body.error.issues[0].path).toBe("id");
  });
});
