import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/branches/[branchId]/export/route";
import { createConversation } from "@/lib/db";
import { readRequest } from "@/lib/formats";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

const fixture = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "formats", "anthropic-thinking-image-document.json"), "utf8"),
) as unknown;

describe.each(TEST_PROVIDERS)("export API (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  async function stored() {
    const read = readRequest("anthropic", fixture);
    const { branch } = await createConversation(test.db, {
      title: "Legal weather",
      source: "import:anthropic",
      tools: read.tools,
      messages: read.messages.map((message) => ({ message, tokens: 1 })),
    });
    return { read, branch };
  }

  it("[F7] exports a stored Anthropic conversation as Anthropic: thinking, images, documents, server tools and cache marks come back", async () => {
    const { read, branch } = await stored();
    const { status, body } = await call(exportRoute.GET, { url: "/api/x?format=anthropic", params: { branchId: branch.id } });
    expect(status).toBe(200);
    expect(body.filename).toBe("Legal-weather.anthropic.json");
    expect(body.warnings).toEqual([]);
    const back = readRequest("anthropic", JSON.parse(body.text));
    expect(back.messages).toEqual(read.messages);
    expect(back.tools).toEqual(read.tools);
  });

  it("[F8] exports to the other formats with a warning for each thing they cannot hold", async () => {
    const { branch } = await stored();
    for (const format of ["openai", "openai-responses", "gemini"]) {
      const { status, body } = await call(exportRoute.GET, { url: `/api/x?format=${format}`, params: { branchId: branch.id } });
      expect(status).toBe(200);
      expect(body.warnings.length).toBeGreaterThan(0);
      expect(body.warnings.every((warning: { path: string; message: string }) => warning.path !== "" && warning.message !== "")).toBe(true);
    }
  });

  it("refuses an unknown format, naming the ones there are", async () => {
    const { branch } = await stored();
    const { status, body } = await call(exportRoute.GET, { url: "/api/x?format=xml", params: { branchId: branch.id } });
    expect(status).toBe(400);
    expect(body.error.issues[0]).toMatchObject({ path: "format", message: "format must be one of openai, jsonl, openai-responses, anthropic, gemini" });
  });
});
