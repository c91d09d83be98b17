import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { startNextServer, type NextServer } from "@/tests/support/next-server";

// Two app instances (`next start` on two ports) on one PostgreSQL database, as behind a load
// balancer (docs/DEPLOY.md): an agent records through one, a workspace open on the other shows
// its turns live. Chromium is Debian's, as in the browser tests.

const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
  ],
};

describe("two instances on one PostgreSQL", () => {
  let database: TestDatabase;
  let upstream: FakeOpenAI;
  let first: NextServer;
  let second: NextServer;
  let browser: Browser;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    upstream = await startFakeOpenAI();
    const env = {
      CONTEXT_LAB_UPSTREAM_BASE_URL: upstream.baseUrl,
      CONTEXT_LAB_UPSTREAM_API_KEY: "sk-upstream-instances",
      CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: path.join(os.tmpdir(), `context-lab-upstream-instances-${process.pid}.json`),
    };
    [first, second] = await Promise.all([startNextServer({ databaseUrl: database.url, env }), startNextServer({ databaseUrl: database.url, env })]);
    browser = await chromium.launch(CHROMIUM);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([first?.stop(), second?.stop()]);
    await upstream?.close();
    await database?.cleanup();
  });

  it("[LV-1][LV-2] an agent records through one instance; the workspace served by the other shows each turn live", async () => {
    const created = await fetch(`${second.url}/api/conversations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "two instances", messages: [{ role: "system", content: "You are a travel agent." }] }),
    });
    expect(created.status).toBe(201);
    const { conversation } = (await created.json()) as { conversation: { id: string } };

    const page = await browser.newPage();
    await page.goto(`${second.url}/c/${conversation.id}`);
    const loaded = page.getByRole("list", { name: "Loaded conversation" });
    await loaded.getByRole("listitem", { name: /^Message 0, / }).waitFor({ timeout: 60_000 });
    // The page's live stream is open (and the second instance listening) before the agent speaks.
    await page
      .getByRole("status", { name: "Run status" })
      .filter({ hasText: /Run \d+/ })
      .waitFor({ timeout: 60_000 });

    const agent = new OpenAI({
      baseURL: `${first.url}/api/v1`,
      apiKey: "ctxlab-instances-agent",
      maxRetries: 0,
      defaultHeaders: { "X-Context-Lab-Conversation": conversation.id },
    });
    const question = "Can you move reservation 8JX2WO to Friday?";
    const answer = await agent.chat.completions.create({
      model: "fake-gpt",
      messages: [
        { role: "system", content: "You are a travel agent." },
        { role: "user", content: question },
      ],
    });
    expect(answer.choices[0].message.content).toBe(`echo: ${question}`);

    const turn = loaded.getByRole("listitem", { name: /^Message 1, / });
    await turn.waitFor({ timeout: 20_000 });
    expect(await turn.textContent()).toContain(question);
    const reply = loaded.getByRole("listitem", { name: /^Message 2, / });
    await reply.waitFor({ timeout: 20_000 });
    expect(await reply.textContent()).toContain(`echo: ${question}`);
    // Nothing was reloaded: the turns came as live events through PostgreSQL.
    expect(first.output()).not.toContain("could not share");
    await page.close();
  });
});
