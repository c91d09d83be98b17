import type { FakeScript } from "../../support/fake-openai";
import { controlPort } from "./upstream-ports";

/** A request the e2e fake upstream received, as its control port reports it. */
export interface SeenRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  /** The chat recorder's summarizer asked it. */
  summary: boolean;
}

const control = `http://127.0.0.1:${controlPort}`;

async function send(path: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(`${control}${path}`, init);
  if (!response.ok) throw new Error(`fake upstream control ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The e2e run's fake OpenAI upstream (started by global-setup.ts), driven from the test process. */
export const fakeUpstream = {
  /** Queues scripted answers for the next chat requests, in order (a tool call, an error). */
  enqueue: (...scripts: FakeScript[]) => send("/enqueue", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(scripts) }),
  /** Drops scripts a failed test left queued. */
  reset: () => send("/reset", { method: "POST" }),
  /** Every request it received this run, in order. */
  requests: async () => ((await send("/requests")) as { requests: SeenRequest[] }).requests,
};
