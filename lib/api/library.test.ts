import { describe, expect, it } from "vitest";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as importRoute from "@/app/api/conversations/import/route";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

const titles = (body: { conversations: { title: string }[] }) => body.conversations.map((row) => row.title);

describe.each(TEST_PROVIDERS)("GET /api/conversations: the library (%s)", (provider) => {
  useApiTestDatabase(provider);

  async function create(title: string, content: string) {
    const { status } = await call(conversationsRoute.POST, { body: { title, messages: [{ role: "user", content }] } });
    expect(status).toBe(201);
  }

  it("[LB-2] answers a page with the total and the next page's offset", async () => {
    for (const title of ["one", "two", "three", "four", "five"]) await create(title, `about ${title}`);
    const first = await call(conversationsRoute.GET, { url: "/api/conversations?limit=2&sort=created&order=asc" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, limit: 2, offset: 0, next: 2 });
    expect(titles(first.body)).toEqual(["one", "two"]);
    const last = await call(conversationsRoute.GET, { url: "/api/conversations?limit=2&offset=4&sort=created&order=asc" });
    expect(last.body).toMatchObject({ total: 5, next: null });
    expect(titles(last.body)).toEqual(["five"]);
    expect(last.body.conversations[0]).toMatchObject({ messageCount: 1, branchCount: 1, failedCalls: 0, source: "api" });
  });

  it("[LB-1] [LB-3] searches and filters imports by what they say", async () => {
    await create("made here", "a refund please");
    const imported = await call(importRoute.POST, {
      url: "/api/conversations/import?format=openai&title=Imported%20refund",
      body: JSON.stringify({ messages: [{ role: "user", content: "refund my ticket" }] }),
    });
    expect(imported.status).toBe(201);
    const search = await call(conversationsRoute.GET, { url: "/api/conversations?q=refund" });
    expect(search.body.total).toBe(2);
    const onlyImports = await call(conversationsRoute.GET, { url: "/api/conversations?q=REFUND%20tick&source=import" });
    expect(titles(onlyImports.body)).toEqual(["Imported refund"]);
    expect((await call(conversationsRoute.GET, { url: "/api/conversations?failed=true" })).body).toMatchObject({ total: 0, conversations: [] });
  });

  it("[LB-5] refuses a query it cannot read with 400 naming each parameter", async () => {
    const bad = await call(conversationsRoute.GET, { url: "/api/conversations?source=email&failed=yes&sort=size&order=up&limit=0&offset=2147483648" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(bad.body.error.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(["failed", "limit", "offset", "order", "sort", "source"]);
    expect(bad.body.error.message).toMatch(/source must be one of import, proxy, agent/);
    const long = await call(conversationsRoute.GET, { url: `/api/conversations?q=${"a".repeat(501)}` });
    expect(long.status).toBe(400);
    expect(long.body.error.issues[0]).toMatchObject({ path: "q" });
  });
});
