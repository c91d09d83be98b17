import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/branches/[branchId]/export/route";
import { createConversation, getHistoryByBranchId } from "@/lib/db";
import { STREAM_CHUNK_CHARACTERS } from "@/lib/api/stream-text";
import { serializeConversation } from "@/lib/import";
import { readRequest } from "@/lib/formats";
import { useDatabaseForTests } from "@/lib/api/database";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { countingClient } from "@/tests/support/counting-client";
import { TEST_PROVIDERS } from "@/tests/support/db";
import { seedConversation } from "@/tests/support/db-fixtures";

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

  it("[F-7] exports a stored Anthropic conversation as Anthropic: thinking, images, documents, server tools and cache marks come back", async () => {
    const { read, branch } = await stored();
    const { status, body } = await call(exportRoute.GET, { url: "/api/x?format=anthropic", params: { branchId: branch.id } });
    expect(status).toBe(200);
    expect(body.filename).toBe("Legal-weather.anthropic.json");
    expect(body.warnings).toEqual([]);
    const back = readRequest("anthropic", JSON.parse(body.text));
    expect(back.messages).toEqual(read.messages);
    expect(back.tools).toEqual(read.tools);
  });

  it("streams a long branch as a JSONL download, one page of at most 1,000 messages read at a time, equal to the whole export", async () => {
    const { branch } = await seedConversation(test.db, 2_500, "Long run");
    const whole = await call(exportRoute.GET, { url: "/api/x?format=jsonl", params: { branchId: branch.id } });
    const counting = countingClient(test.db);
    useDatabaseForTests(counting.db);
    const response = await exportRoute.GET(new Request("http://localhost/api/x?format=jsonl&download=true"), {
      params: Promise.resolve({ branchId: branch.id }),
    });
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="Long-run.jsonl.jsonl"');
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(decoder.decode(chunk, { stream: true }));
    expect(chunks.join("")).toBe(whole.body.text);
    expect(chunks.join("").split("\n").filter(Boolean)).toHaveLength(2_500);
    // The history came in three reads, none larger than a page.
    expect(chunks).toHaveLength(3);
    expect(counting.count().largest).toBeLessThanOrEqual(1_000);
    const refused = await call(exportRoute.GET, { url: "/api/x?format=jsonl&download=yes", params: { branchId: branch.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues[0].path).toBe("download");
  });

  it("[F-8] exports to the other formats with a warning for each thing they cannot hold", async () => {
    const { branch } = await stored();
    for (const format of ["openai", "openai-responses", "gemini"]) {
      const { status, body } = await call(exportRoute.GET, { url: `/api/x?format=${format}`, params: { branchId: branch.id } });
      expect(status).toBe(200);
      expect(body.warnings.length).toBeGreaterThan(0);
      expect(body.warnings.every((warning: { path: string; message: string }) => warning.path !== "" && warning.message !== "")).toBe(true);
    }
  });

  it("[RL-ST7] writes a JSON export as it serialises it, in many writes whose text is the whole export", async () => {
    const { branch } = await createConversation(test.db, {
      title: "Long run",
      source: "api",
      messages: Array.from({ length: 3_000 }, (_, index) => ({
        message: { role: index % 2 === 0 ? "user" : "assistant", content: `turn ${index}: ${"words of a long run ".repeat(10)}` },
        tokens: 1,
      })),
    });
    const messages = (await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message);
    for (const format of ["openai", "anthropic", "gemini", "openai-responses"] as const) {
      const expected = serializeConversation(messages, format);
      for (const download of [false, true]) {
        const response = await exportRoute.GET(new Request(`http://localhost/api/x?format=${format}${download ? "&download=true" : ""}`), {
          params: Promise.resolve({ branchId: branch.id }),
        });
        expect(response.status).toBe(200);
        const chunks: string[] = [];
        const decoder = new TextDecoder();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(decoder.decode(chunk, { stream: true }));
        const text = chunks.join("");
        // Each write holds about STREAM_CHUNK_CHARACTERS, the event loop free between them.
        expect(text.length).toBeGreaterThan(8 * STREAM_CHUNK_CHARACTERS);
        expect(chunks.length).toBeGreaterThanOrEqual(Math.floor(text.length / (STREAM_CHUNK_CHARACTERS * 2)));
        if (download) expect(text).toBe(expected.text);
        else expect(text).toBe(JSON.stringify({ format, filename: `Long-run.${format}.json`, ...expected }));
      }
    }
  });

  it("refuses an unknown format, naming the ones there are", async () => {
    const { branch } = await stored();
    const { status, body } = await call(exportRoute.GET, { url: "/api/x?format=xml", params: { branchId: branch.id } });
    expect(status).toBe(400);
    expect(body.error.issues[0]).toMatchObject({ path: "format", message: "format must be one of openai, jsonl, openai-responses, anthropic, gemini" });
  });
});
