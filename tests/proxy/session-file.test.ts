import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useDatabaseForTests } from "@/lib/api/database";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { exportSessionText, importSessionText, rowsOfTable, sessionLinesOf } from "@/tests/support/session-file";
import { recordedFor, useProxyHarness } from "./support/harness";

const CALLS = 200;
const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: "function",
    function: { name: "read_file", description: "Reads a file. ".repeat(30), parameters: { type: "object", properties: { path: { type: "string" } } } },
  },
];

describe.each(TEST_PROVIDERS)("session file of a recorded agent (%s)", (provider) => {
  const source = useTestDatabase(provider);
  const target = useTestDatabase(provider);
  const harness = useProxyHarness(source);

  it("[SE-5] a 200-call agent recorded through the proxy exports under 10 MB and imports back identical", { timeout: 300_000 }, async () => {
    const agent = harness.agent("long-agent");
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "system", content: "You read files and report. ".repeat(20) }];
    let whole = 0;
    for (let call = 1; call <= CALLS; call += 1) {
      // Each call adds a file's worth of text, as a coding agent's tool results do.
      messages.push({ role: "user", content: `file ${call}:\n${`line ${call} of the file, with some code in it;\n`.repeat(40)}` });
      const body = { model: "fake-gpt", messages: structuredClone(messages), tools: TOOLS, stream: call % 4 === 0 };
      whole += JSON.stringify(body).length;
      if (body.stream) {
        const stream = await agent.chat.completions.create({ ...body, stream: true });
        let content = "";
        for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
        messages.push({ role: "assistant", content });
      } else {
        const completion = await agent.chat.completions.create({ ...body, stream: false });
        messages.push({ role: "assistant", content: completion.choices[0].message.content });
      }
    }
    await harness.recorded();
    const before = await recordedFor(source.db, "long-agent");
    expect(before.exchanges).toHaveLength(CALLS);

    const exported = await exportSessionText(before.conversation.id);
    expect(exported.status).toBe(200);
    const bytes = Buffer.byteLength(exported.text);
    // Whole, the requests alone are over 30 MB; as deltas the file holds each call's new turns once.
    expect(whole).toBeGreaterThan(30 * 1024 * 1024);
    expect(bytes).toBeLessThan(10 * 1024 * 1024);
    const exchanges = rowsOfTable(sessionLinesOf(exported.text), "exchanges");
    expect(exchanges.filter((exchange) => exchange.requestBaseId !== null)).toHaveLength(CALLS - 1);

    useDatabaseForTests(target.db);
    const imported = await importSessionText(exported.text);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.rows).toMatchObject({ exchanges: CALLS, messages: 2 * CALLS + 1 });
    const after = await recordedFor(target.db, "long-agent");
    expect(after.conversation).toEqual(before.conversation);
    expect(after.branches).toEqual(before.branches);
    expect(after.records).toEqual(before.records);
    expect(after.exchanges).toEqual(before.exchanges);
    expect(after.exchanges.at(-1)!.request).toMatchObject({ messages: messages.slice(0, -1) });
  });
});
