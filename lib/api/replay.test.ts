// The replay route on real agent conversations: tau-bench's GPT-4o airline trajectories
// (sierra-research/tau-bench, MIT licence; see lib/context/test-support/tau-bench.ts).
import { describe, expect, it } from "vitest";
import * as replayRoute from "@/app/api/branches/[branchId]/replay/route";
import { comparePolicies, presetPolicy, PRESETS, type ComparedRun, type ToolDefinition } from "@/lib/context";
import { sampleTrajectories } from "@/lib/context/test-support/tau-bench";
import { createConversation } from "@/lib/db";
import { BUILT_IN_MODELS, findModel } from "@/lib/models";
import { DEFAULT_SETTINGS, resolveSettings } from "@/lib/settings";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";
import { turn } from "@/tests/support/db-fixtures";

const trajectory = [...sampleTrajectories()].sort((a, b) => b.messages.length - a.messages.length)[0].messages;
const tools: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "get_reservation_details",
      description: "Get the details of a reservation.",
      parameters: { type: "object", properties: { reservation_id: { type: "string" } } },
    },
  },
];
const masking = {
  id: "mask",
  label: "Observation masking",
  policy: { ...presetPolicy("observation_masking"), tuning: { observation_masking: { keepObservations: 2 } } },
};

describe.each(TEST_PROVIDERS)("replay API (%s)", (provider) => {
  const test = useApiTestDatabase(provider);
  const seed = async () =>
    (await createConversation(test.db, { title: "tau-bench", source: "import:openai", messages: trajectory.map((message) => turn(message)), tools })).branch;

  it("[E-RP1][E-RP9] replays the stored branch under raw and the policies: the same figures as the engine in process", async () => {
    const branch = await seed();
    const { status, body } = await call(replayRoute.POST, {
      params: { branchId: branch.id },
      body: { policies: [masking, { id: "navigator", label: "Navigator", policy: PRESETS.navigator.policy }] },
    });
    expect(status).toBe(200);
    const prices = findModel("gpt-4o", BUILT_IN_MODELS).entry.prices!;
    expect(body.prices).toEqual(prices);
    expect(body.messages).toBe(trajectory.length);
    const expected = await comparePolicies({
      messages: trajectory,
      tools,
      prices,
      keepMessages: false,
      policies: [masking, { id: "navigator", label: "Navigator", policy: PRESETS.navigator.policy }],
    });
    expect(body.callPoints).toEqual(expected.callPoints);
    expect(body.runs.map((run: ComparedRun) => run.id)).toEqual(["raw", "mask", "navigator"]);
    expect(body.runs.map((run: ComparedRun) => run.replay.totals)).toEqual(expected.runs.map((run) => run.replay.totals));
    expect(body.runs[1].replay.calls.map((call: { tokens: unknown }) => call.tokens)).toEqual(expected.runs[1].replay.calls.map((call) => call.tokens));
    expect(body.runs[0].replay.calls[0].messages).toEqual([]);
  });

  it("[E-RP6] prices null: no costs; keepMessages sends each request back", async () => {
    const branch = await seed();
    const { status, body } = await call(replayRoute.POST, { params: { branchId: branch.id }, body: { policies: [masking], prices: null, keepMessages: true } });
    expect(status).toBe(200);
    expect(body.runs[1].replay.totals.cost).toBeNull();
    const first = body.runs[0].replay.calls[1];
    expect(first.messages).toEqual(trajectory.slice(0, first.at));
  });

  it("[ST-7][E-RP9] takes the policy resolveSettings makes for every catalogue model, its media rule included", async () => {
    const { branch } = await createConversation(test.db, {
      title: "short",
      source: "import:openai",
      messages: trajectory.slice(0, 6).map((message) => turn(message)),
      tools,
    });
    for (const entry of BUILT_IN_MODELS) {
      const { policy } = resolveSettings({ ...DEFAULT_SETTINGS, model: entry.id });
      const { status, body } = await call(replayRoute.POST, {
        params: { branchId: branch.id },
        body: { policies: [{ id: "settings", label: entry.id, policy }] },
      });
      expect(status, `${entry.id}: ${JSON.stringify(body.error)}`).toBe(200);
      expect(body.prices).toEqual(entry.prices ?? null);
      expect(body.runs.map((run: ComparedRun) => run.id)).toEqual(["raw", "settings"]);
    }
  });

  it("refuses a bad body with the field's path, an engine refusal with 422, an unknown branch with 404", async () => {
    const branch = await seed();
    const bad = await call(replayRoute.POST, {
      params: { branchId: branch.id },
      body: { policies: [{ ...masking, policy: { ...masking.policy, historyRounds: 0 } }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe("policies[0].policy.historyRounds");
    const tooMany = await call(replayRoute.POST, { params: { branchId: branch.id }, body: { policies: [masking, masking, masking, masking] } });
    expect(tooMany.status).toBe(400);
    const refused = await call(replayRoute.POST, {
      params: { branchId: branch.id },
      body: { policies: [{ ...masking, policy: { ...masking.policy, tuning: { observation_masking: { placeholder: "  " } } } }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain("observation_masking: placeholder must be a non-empty text");
    const missing = await call(replayRoute.POST, { params: { branchId: "nope" }, body: { policies: [masking] } });
    expect(missing.status).toBe(404);
  });
});
