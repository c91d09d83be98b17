// One truth of what the model receives (E-RB1–E-RB6): for random conversations and
// random valid settings, the playground's build (the Web Worker's host), the
// prompt API (the Prompt tab's server twin), the chat recorder's request to
// the upstream and `npm run inspect` give the same messages, the same token
// total and the same verdict. The recording proxy is held to the same builder
// in tests/proxy.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as promptRoute from "@/app/api/branches/[branchId]/prompt/route";
import { PROCESSOR_KINDS, type Message } from "@/lib/context";
import { conversationArbitrary } from "@/lib/context/test-support/arbitraries";
import { runInspect } from "@/lib/cli/inspect";
import { createConversation, getBranchScope, getHistoryByBranchId } from "@/lib/db";
import { PipelineHost } from "@/lib/playground/pipeline-host";
import { chatRequestBody, type ChatRequestBody } from "@/lib/request";
import { loadMemorySnapshot } from "@/lib/request/server";
import { DEFAULT_SETTINGS, mergeSettings, resolveSettings, type Settings } from "@/lib/settings";
import { call } from "@/tests/api/support";
import { postChat, useRecorderHarness } from "@/tests/support/recorder-harness";

const settingsArbitrary: fc.Arbitrary<Settings> = fc
  .record({
    mode: fc.constantFrom("pilot", "copilot", "navigator") as fc.Arbitrary<Settings["mode"]>,
    historyRounds: fc.integer({ min: 1, max: 6 }),
    tokenBudget: fc.option(fc.integer({ min: 200, max: 6_000 }), { nil: null }),
    maxMessageSize: fc.integer({ min: 200, max: 3_000 }),
    model: fc.constantFrom("gpt-4o", "gpt-4", "claude-sonnet-4-5"),
    enabled: fc.array(fc.boolean(), { minLength: PROCESSOR_KINDS.length, maxLength: PROCESSOR_KINDS.length }),
    reversed: fc.boolean(),
    // The strategies' settings (ST-5), small enough that they act on these conversations.
    tuning: fc.record(
      {
        clear_tool_uses: fc.record({
          triggerTokens: fc.integer({ min: 0, max: 400 }),
          keepToolUses: fc.integer({ min: 0, max: 2 }),
          clearToolInputs: fc.boolean(),
        }),
        observation_masking: fc.record({ keepObservations: fc.integer({ min: 0, max: 2 }) }),
        auto_compact: fc.record({ fraction: fc.constantFrom(0.01, 0.5, 1), keepRounds: fc.integer({ min: 1, max: 3 }) }),
        token_window: fc.record({ maxTokens: fc.integer({ min: 100, max: 2_000 }) }),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ enabled, reversed, ...rest }) => {
    const processors = PROCESSOR_KINDS.map((kind, index) => ({ kind, enabled: enabled[index] }));
    // Compaction on the way (a summary threshold) is exercised by the recorder's own tests; here the state stays as stored.
    return mergeSettings(DEFAULT_SETTINGS, { ...rest, summaryThreshold: null, processors: reversed ? processors.reverse() : processors });
  });

/** The same request, as the numbers people compare. */
function figures(body: ChatRequestBody, total: number, ok: boolean) {
  return { messages: body.messages, tools: body.tools ?? [], model: body.model, maxTokens: body.max_tokens, total, ok };
}

describe("one truth of the next request (sqlite)", () => {
  const harness = useRecorderHarness("sqlite");

  it("[E-RB1][E-RB3] playground, prompt API, chat recorder and npm run inspect agree on every random conversation and setting", {
    timeout: 600_000,
  }, async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "one-truth-"));
    try {
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, settingsArbitrary, async (history, settings) => {
          const turn = "And what should I do next?";
          // The recorder appends a user turn: a history waiting for tool results cannot take one.
          const last = history.filter((message) => message.role !== "system").at(-1);
          fc.pre(last === undefined || (last.role === "assistant" && !last.tool_calls?.length));
          const resolved = resolveSettings(settings);
          const { branch } = await createConversation(harness.db, {
            title: "one truth",
            source: "api",
            settings,
            messages: history.map((message) => ({ message, tokens: 0 })),
          });

          // The recorder records the turn and sends the request; an upstream error keeps the reply out of the branch.
          harness.fake.respondWith(() => ({ kind: "error", status: 500 }));
          const before = harness.chatRequests().length;
          const answer = await postChat(branch.id, { userTurn: turn, stream: false });
          const sentRequests = harness.chatRequests().slice(before);
          const recorder = answer.body;

          // The branch as the recorder left it: the history and the turn.
          const records = await getHistoryByBranchId(harness.db, branch.id);
          const scope = await getBranchScope(harness.db, branch.id);
          const host = new PipelineHost();
          host.loadStored("one truth", records, undefined, resolved.policy.encoding, await loadMemorySnapshot(harness.db, scope, scope.branch.length));
          const playground = await host.run({ settings: resolved });
          const playgroundBody = chatRequestBody({ ...playground.request, messages: playground.history });
          const expected = figures(playgroundBody, playground.request.verdict.tokens.total, playground.request.verdict.ok);

          const api = (await call(promptRoute.GET, { params: { branchId: branch.id } })).body;
          expect(figures(chatRequestBody(api), api.verdict.tokens.total, api.verdict.ok)).toEqual(expected);

          if (expected.ok) {
            expect(sentRequests).toHaveLength(1);
            const {
              stream: _stream,
              stream_options: _options,
              ...sent
            } = sentRequests[0].body as unknown as ChatRequestBody & { stream?: boolean; stream_options?: unknown };
            expect(sent).toEqual(playgroundBody);
            expect(recorder.prompt.verdict).toEqual(playground.request.verdict);
          } else {
            expect(sentRequests).toHaveLength(0);
            expect(recorder).toMatchObject({
              status: "budget_exceeded",
              budget: playground.request.verdict.limit,
              tokens: playground.request.verdict.tokens.total,
            });
          }

          // inspect reads a file: it knows no saved summary, so it agrees when the recorder did not compact first;
          // and a file cannot claim that the engine wrote a message (E-M2), so histories with engine-made messages are left out.
          if (playground.request.summary || records.some((record) => record.message.engine !== undefined)) return;
          const file = path.join(folder, "conversation.json");
          const settingsFile = path.join(folder, "settings.json");
          fs.writeFileSync(file, JSON.stringify({ messages: records.map((record) => record.message) }));
          fs.writeFileSync(settingsFile, JSON.stringify(settings));
          const out = path.join(folder, "processed.json");
          const printed: string[] = [];
          const code = await runInspect([file, "--settings", settingsFile, "--out", out, "--json"], {
            stdout: (text) => printed.push(text),
            stderr: () => undefined,
            readStdin: () => "",
          });
          expect(code).toBe(0);
          const inspected = JSON.parse(printed.join("\n"));
          expect(JSON.parse(fs.readFileSync(out, "utf8")) as Message[]).toEqual(playground.history);
          expect(figures(chatRequestBody(inspected), inspected.verdict.tokens.total, inspected.verdict.ok)).toEqual(expected);
        }),
        { numRuns: 40 },
      );
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
