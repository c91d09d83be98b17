// What Context Lab itself makes of a history under a saved policy: the Prompt
// tab's body for the history stored in a conversation with that policy, and the
// body the proxy forwards when an agent sends that history. Adapters are held
// to both.
import type OpenAI from "openai";
import { expect } from "vitest";
import type { Message, ToolDefinition } from "@/lib/context";
import { createConversation, type Database } from "@/lib/db";
import { readChatRequest, writeChatRequest } from "@/lib/formats";
import { recordMessages } from "@/lib/memory";
import { settingsWithPolicy, type Policy } from "@/lib/policies";
import { chatRequestBody, requestView, type ChatRequestBody } from "@/lib/request";
import { prepareNextRequest } from "@/lib/request/server";
import { DEFAULT_SETTINGS, resolveSettings } from "@/lib/settings";
import type { FakeRequest } from "@/tests/support/fake-openai";
import type { ProxyHarness } from "@/tests/proxy/support/harness";
import { receivedRows, sentRows, type SentMessage } from "./sent";

export interface ReferenceRequest {
  /** The Prompt tab's body. */
  preview: ChatRequestBody;
  /** What the upstream received from the proxy. */
  forwarded: FakeRequest;
}

export interface ReferenceOptions {
  /** The proxy label, new for each reference, so no earlier call's memory is used. */
  label: string;
  history: Message[];
  tools: ToolDefinition[];
  policy: Policy;
}

/** The Prompt tab's body and the proxy's forwarded request for `history` under `policy`, on a fresh conversation. */
export async function referenceRequest(db: Database, harness: Pick<ProxyHarness, "agent" | "fake">, options: ReferenceOptions): Promise<ReferenceRequest> {
  const settings = { ...settingsWithPolicy(DEFAULT_SETTINGS, options.policy), applyPipeline: true };
  const { branch } = await createConversation(db, { title: options.label, source: "proxy", recordKey: options.label, settings, tools: options.tools });
  await recordMessages(db, branch.id, options.history, { compact: false });
  const prepared = await prepareNextRequest(db, branch.id);
  const preview = chatRequestBody(requestView(prepared.request, prepared.settings));
  const written = writeChatRequest({ messages: options.history, tools: options.tools }).value as Omit<
    OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
    "model"
  >;
  const before = harness.fake.requests.length;
  await harness.agent(options.label).chat.completions.create({ ...written, model: "fake-gpt" });
  return { preview, forwarded: harness.fake.requests[before] };
}

/**
 * Asserts that `sent` (a request an adapter made the upstream receive) holds,
 * message for message and token for token, what the Prompt tab previews and
 * what the proxy forwards for `history` under `policy`, and that the policy
 * changed something. Returns the rows compared.
 */
export async function expectAsContextLab(
  db: Database,
  harness: Pick<ProxyHarness, "agent" | "fake">,
  sent: FakeRequest,
  options: ReferenceOptions,
): Promise<SentMessage[]> {
  const resolved = resolveSettings(settingsWithPolicy(DEFAULT_SETTINGS, options.policy)).policy;
  const { preview, forwarded } = await referenceRequest(db, harness, options);
  const rows = receivedRows(sent, resolved);
  expect(rows).toEqual(sentRows(readChatRequest(preview).messages, resolved));
  expect(rows).toEqual(receivedRows(forwarded, resolved));
  expect(rows).not.toEqual(sentRows(options.history, resolved));
  return rows;
}
