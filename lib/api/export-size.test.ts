import { describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/branches/[branchId]/export/route";
import * as importRoute from "@/app/api/conversations/import/route";
import type { Message } from "@/lib/context";
import { createConversation } from "@/lib/db";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { turn } from "@/tests/support/db-fixtures";

// [IN-7] An export never grows beyond a small multiple of what is stored: nested tool inputs are not re-expanded.
// The import refuses arguments nesting past 100 levels (BD-3), so the deep ones are stored as the recording
// proxy stores an agent's calls, arguments as sent.

/** Arguments nesting `{"a":` `levels` deep: about 5 bytes a level. */
function nestedArguments(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

function conversationWithCalls(calls: number, levels: number): Message[] {
  const messages: Message[] = [{ role: "user", content: "go deep" }];
  for (let index = 0; index < calls; index += 1) {
    const id = `call_${index}`;
    messages.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "dig", arguments: nestedArguments(levels) } }] });
    messages.push({ role: "tool", tool_call_id: id, content: "ok" });
  }
  messages.push({ role: "assistant", content: "done" });
  return messages;
}

/** The largest whole export allowed for `input`: a small multiple of it. */
const SMALL_MULTIPLE = 2;

describe("exports of deeply nested tool inputs (sqlite)", () => {
  const test = useApiTestDatabase("sqlite");

  it.each([
    [1, 3_900],
    [12, 3_900],
  ])(
    "[IN-7] %i call(s) nested %i deep export in every format within a small multiple of the import, inputs intact",
    async (calls, levels) => {
      const messages = conversationWithCalls(calls, levels);
      const body = JSON.stringify({ messages });
      const refused = await call(importRoute.POST, { url: "/api/conversations/import?format=openai", body, headers: { "content-type": "application/json" } });
      expect(refused.status).toBe(400);
      const { branch } = await createConversation(test.db, { title: "deep", source: "proxy", messages: messages.map((message) => turn(message)) });
      const branchId = branch.id;
      for (const format of ["anthropic", "gemini", "openai", "openai-responses"]) {
        const exported = await call(exportRoute.GET, { url: `/x?format=${format}`, params: { branchId } });
        expect(exported.status, format).toBe(200);
        const text: string = exported.body.text;
        expect(text.length, format).toBeLessThanOrEqual(SMALL_MULTIPLE * body.length);
        // Arguments stay JSON text in OpenAI's formats; the others hold them as objects, whose deep part is written compact.
        const stored = format.startsWith("openai") ? JSON.stringify(nestedArguments(levels)) : nestedArguments(levels - 10);
        expect(text.split(stored).length - 1, format).toBe(calls);
      }
      const anthropic = JSON.parse((await call(exportRoute.GET, { url: "/x?format=anthropic", params: { branchId } })).body.text);
      const inputs = anthropic.messages.flatMap((message: { content: string | { type: string; input?: unknown }[] }) =>
        typeof message.content === "string" ? [] : message.content.filter((block) => block.type === "tool_use").map((block) => JSON.stringify(block.input)),
      );
      expect(inputs).toEqual(Array.from({ length: calls }, () => nestedArguments(levels)));
    },
    60_000,
  );
});
