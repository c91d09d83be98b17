import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, expect, test } from "@playwright/test";
import { appPort } from "./support/upstream-ports";

// Real attacks from a real browser: a page on another origin (a second loopback name) tries a
// no-cors fetch and a text/plain form against the app, and a DNS-rebinding name resolving to
// 127.0.0.1 tries to read it. Nothing gets through; the app's own pages keep working (the CSP
// lets Next's nonce-stamped scripts run) and show a spoofing title for what it is.

const app = `http://127.0.0.1:${appPort}`;
const PLANTED = "planted by another origin";

function attackerPage(): string {
  const body = JSON.stringify({ title: PLANTED, messages: [{ role: "user", content: "hi" }] });
  return `<!doctype html><html><body>
<form id="form" method="POST" enctype="text/plain" action="${app}/api/conversations" target="sink">
  <input name='${body.slice(0, -1)}' value='"}'>
</form>
<iframe name="sink"></iframe>
<script>
  window.results = [];
  fetch("${app}/api/conversations", { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(body)} })
    .then(() => window.results.push("no-cors sent"), (error) => window.results.push("no-cors failed: " + error));
  fetch("${app}/api/conversations").then((response) => response.text()).then((text) => window.results.push("read: " + text), (error) => window.results.push("read blocked"));
  document.getElementById("form").submit();
</script></body></html>`;
}

test("another origin's no-cors fetch and text/plain form create nothing, and it cannot read the list", async ({ page, request }) => {
  const server = http.createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(attackerPage()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    // `localhost` and `127.0.0.1` are different origins: the attacker's page is on the former.
    await page.goto(`http://localhost:${port}/`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { results: string[] }).results.length)).toBe(2);
    const results = await page.evaluate(() => (window as unknown as { results: string[] }).results);
    expect(results).toContain("read blocked");
    await page.waitForTimeout(500);
    const { conversations } = (await (await request.get("/api/conversations?limit=500")).json()) as { conversations: { title: string }[] };
    expect(conversations.map((conversation) => conversation.title)).not.toContain(PLANTED);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test("a DNS-rebinding name that resolves to 127.0.0.1 gets 403 and no data", async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP evil.example 127.0.0.1"],
  });
  try {
    const page = await browser.newPage();
    const response = await page.goto(`http://evil.example:${appPort}/api/conversations`);
    expect(response?.status()).toBe(403);
    expect(await response?.json()).toMatchObject({ error: { code: "forbidden_host" } });
    const pageResponse = await page.goto(`http://evil.example:${appPort}/`);
    expect(pageResponse?.status()).toBe(403);
  } finally {
    await browser.close();
  }
});

test("the app's own pages run under the CSP, and a right-to-left override in a title is shown, not obeyed", async ({ page, request }) => {
  const created = await request.post("/api/conversations", {
    data: { title: "\u202Egnp.exe", messages: [{ role: "user", content: "invoice attached: \u202Efdp.exe" }] },
  });
  expect(created.status()).toBe(201);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  await page.goto("/");
  const item = page.getByRole("link", { name: /gnp\.exe/ }).first();
  await expect(item).toContainText("U+202E");
  await item.click();
  await expect(page).toHaveURL(/\/c\//);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("U+202Egnp.exe");
  await expect(page.getByText("fdp.exe").first()).toBeVisible();
  expect(errors).toEqual([]);
});
