import { describe, expect, it } from "vitest";
import * as policyRoute from "@/app/api/policies/[id]/route";
import * as diffRoute from "@/app/api/policies/diff/route";
import * as exportRoute from "@/app/api/policies/[id]/export/route";
import * as policiesRoute from "@/app/api/policies/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import { policySnippet } from "@/lib/context";
import { createConversation } from "@/lib/db";
import { policyOfSettings } from "@/lib/policies";
import { DEFAULT_SETTINGS, resolveSettings, settingsForMode } from "@/lib/settings";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

const copilot = policyOfSettings(DEFAULT_SETTINGS);
const navigator = { ...policyOfSettings(settingsForMode("navigator")), tokenBudget: 30_000 };

describe.each(TEST_PROVIDERS)("policies API (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  async function conversation(title: string) {
    return (await createConversation(test.db, { title, source: "test", messages: [{ message: { role: "user", content: "hi" }, tokens: 1 }] })).conversation;
  }

  it("[PO-5] saves policies globally and per conversation; a conversation lists the global ones and its own, never another's", async () => {
    const first = await conversation("first");
    const second = await conversation("second");
    const global = await call(policiesRoute.POST, { body: { name: "Everyday", policy: copilot } });
    expect(global.status).toBe(201);
    expect(global.body.policy).toMatchObject({ name: "Everyday", conversationId: null, policy: copilot });
    const own = await call(policiesRoute.POST, { body: { name: "Tight", conversationId: first.id, policy: navigator } });
    expect(own.status).toBe(201);
    await call(policiesRoute.POST, { body: { name: "Other", conversationId: second.id, policy: copilot } });

    const listed = await call(policiesRoute.GET, { url: `/api/policies?conversationId=${first.id}` });
    expect(listed.body.policies.map((entry: { name: string }) => entry.name)).toEqual(["Everyday", "Tight"]);
    expect(listed.body.policies[1].policy).toEqual(navigator);
    expect((await call(policiesRoute.GET)).body.policies.map((entry: { name: string }) => entry.name)).toEqual(["Everyday"]);

    expect((await call(conversationRoute.DELETE, { method: "DELETE", params: { id: first.id } })).status).toBe(204);
    expect((await call(policyRoute.GET, { params: { id: own.body.policy.id } })).status).toBe(404);
  });

  it("[PO-5] renames, replaces and deletes a policy", async () => {
    const created = (await call(policiesRoute.POST, { body: { name: "Draft", policy: copilot } })).body.policy;
    const renamed = await call(policyRoute.PATCH, { method: "PATCH", params: { id: created.id }, body: { name: "Final", policy: navigator } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.policy).toMatchObject({ id: created.id, name: "Final", policy: navigator });
    expect((await call(policyRoute.DELETE, { method: "DELETE", params: { id: created.id } })).status).toBe(204);
    expect((await call(policyRoute.DELETE, { method: "DELETE", params: { id: created.id } })).status).toBe(404);
  });

  it("[PO-3] diffs two saved policies field by field", async () => {
    const a = (await call(policiesRoute.POST, { body: { name: "A", policy: copilot } })).body.policy;
    const b = (await call(policiesRoute.POST, { body: { name: "B", policy: navigator } })).body.policy;
    const { status, body } = await call(diffRoute.GET, { url: `/api/policies/diff?from=${a.id}&to=${b.id}` });
    expect(status).toBe(200);
    expect(body.differences.map((difference: { field: string }) => difference.field)).toEqual([
      "mode",
      "historyRounds",
      "summaryThreshold",
      "offloadThreshold",
      "tokenBudget",
    ]);
    expect((await call(diffRoute.GET, { url: `/api/policies/diff?from=${a.id}&to=nope` })).body.error).toMatchObject({ code: "not_found" });
  });

  it("[PO-7] exports a saved policy as JSON that saves back as it is, and as TypeScript holding the policy resolved with the catalogue", async () => {
    const saved = (await call(policiesRoute.POST, { body: { name: "Tight / navigator", policy: navigator } })).body.policy;
    const asJson = await call(exportRoute.GET, { url: "/api/x?format=json", params: { id: saved.id } });
    expect(asJson.status).toBe(200);
    expect(asJson.body.filename).toBe("Tight-navigator.policy.json");
    const file = JSON.parse(asJson.body.text);
    expect(file).toEqual({ name: "Tight / navigator", policy: navigator });
    expect((await call(policiesRoute.POST, { body: file })).status).toBe(201);
    const asTs = await call(exportRoute.GET, { url: "/api/x?format=typescript", params: { id: saved.id } });
    expect(asTs.body.filename).toBe("Tight-navigator.policy.ts");
    // The engine's own snippet of the policy as the catalogue resolves it (E-RP11).
    expect(asTs.body.text).toBe(policySnippet(resolveSettings({ ...DEFAULT_SETTINGS, ...navigator }).policy));
    expect(asTs.body.text).toContain("export function prepareRequest(");
    const bad = await call(exportRoute.GET, { url: "/api/x?format=yaml", params: { id: saved.id } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0]).toMatchObject({ path: "format", message: "format must be one of json, typescript" });
  });

  it("refuses a bad policy, an unknown conversation and an empty change in the one error shape, saving nothing", async () => {
    const bad = await call(policiesRoute.POST, { body: { name: " ", policy: { ...copilot, historyRounds: 0, applyPipeline: true } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(bad.body.error.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(["name", "policy", "policy.historyRounds"]);
    const missing = await call(policiesRoute.POST, { body: { name: "x", conversationId: "nope", policy: copilot } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
    const created = (await call(policiesRoute.POST, { body: { name: "kept", policy: copilot } })).body.policy;
    const empty = await call(policyRoute.PATCH, { method: "PATCH", params: { id: created.id }, body: {} });
    expect(empty.status).toBe(400);
    expect((await call(policiesRoute.GET)).body.policies).toHaveLength(1);
  });
});
