import { describe, expect, it } from "vitest";
import { identifyAgent } from "./identify";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("identifyAgent", () => {
  it("prefers the X-Context-Lab-Conversation header", () => {
    expect(identifyAgent(headers({ "x-context-lab-conversation": " planner ", authorization: "Bearer ctxlab-other" }))).toEqual({
      key: "planner",
      via: "header",
      agentApiKey: null,
    });
  });

  it("reads the label of a ctxlab- key", () => {
    expect(identifyAgent(headers({ authorization: "Bearer ctxlab-support-bot" }))).toEqual({ key: "support-bot", via: "api-key", agentApiKey: null });
  });

  it("fingerprints a real key without keeping it in the record key, and keeps it to forward", () => {
    const identity = identifyAgent(headers({ authorization: "Bearer sk-live-abcdef" }));
    expect(identity.via).toBe("agent-key");
    expect(identity.key).toMatch(/^key-[0-9a-f]{12}$/);
    expect(identity.key).not.toContain("abcdef");
    expect(identity.agentApiKey).toBe("sk-live-abcdef");
    expect(identifyAgent(headers({ authorization: "Bearer sk-live-abcdef" })).key).toBe(identity.key);
  });

  it("falls back to anonymous", () => {
    expect(identifyAgent(headers({}))).toEqual({ key: "anonymous", via: "anonymous", agentApiKey: null });
    expect(identifyAgent(headers({ authorization: "Bearer ctxlab-" })).via).toBe("anonymous");
  });

  it("[P-A3] reads an Anthropic agent's x-api-key like a bearer key", () => {
    expect(identifyAgent(headers({ "x-api-key": "ctxlab-claude" }))).toEqual({ key: "claude", via: "api-key", agentApiKey: null });
    const real = identifyAgent(headers({ "x-api-key": "sk-ant-real-key" }));
    expect(real).toMatchObject({ via: "agent-key", agentApiKey: "sk-ant-real-key" });
    expect(identifyAgent(headers({ authorization: "Bearer ctxlab-bearer", "x-api-key": "ctxlab-other" })).key).toBe("bearer");
  });

  it("[P-S1] puts the X-Context-Lab-Session header after the key", () => {
    expect(identifyAgent(headers({ authorization: "Bearer ctxlab-nightly", "x-context-lab-session": " run-7 " })).key).toBe("nightly/run-7");
    expect(identifyAgent(headers({ "x-context-lab-session": "run-7" })).key).toBe("anonymous/run-7");
  });
});
