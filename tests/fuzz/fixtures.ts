import { POST as createConversationRoute } from "@/app/api/conversations/route";
import { POST as appendRoute } from "@/app/api/branches/[branchId]/messages/route";
import { POST as compactRoute } from "@/app/api/branches/[branchId]/compact/route";
import { GET as sessionExportRoute } from "@/app/api/sessions/[conversationId]/route";
import { POST as policiesRoute } from "@/app/api/policies/route";
import { PUT as modelRoute } from "@/app/api/models/[id]/route";
import { listCallsByConversationId } from "@/lib/calls";
import {
  findConversationByRecordKey,
  forkBranch,
  getArtifactsByBranchId,
  getCheckpointsByBranchId,
  getOffloadedContentsByBranchId,
  type Database,
} from "@/lib/db";
import { getProxyRecorder } from "@/lib/proxy";
import { policyOfSettings } from "@/lib/policies";
import { plainRouteOf } from "@/lib/server/routes";
import { DEFAULT_SETTINGS } from "@/lib/settings";

const chatCompletionsRoute = plainRouteOf("/api/v1/chat/completions")!.POST;

/** Ids of every kind a route takes, each pool holding real rows of the fixture database. */
export interface FuzzIds {
  conversation: string[];
  /** Conversations the DELETE routes may remove: the others stay for every route after them. */
  victim: string[];
  branch: string[];
  checkpoint: string[];
  artifact: string[];
  handle: string[];
  policy: string[];
  model: string[];
  call: string[];
  /** Session files exported from the fixtures (requests as deltas and left out; a recorded call's), for `POST /api/sessions` to be fed copies and mutations of. */
  sessionFiles: string[];
  /** The coding agents' session files the Local agents routes list (set by the test, which makes their home). */
  localSession: string[];
}

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function send(handler: Handler, body: unknown, params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<unknown> {
  const request = new Request("http://127.0.0.1/api/fixture", {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", host: "127.0.0.1", ...headers },
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  const text = await response.text();
  if (!response.ok) throw new Error(`fixture request failed with ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const HISTORY = [
  { role: "system", content: "You are a travel agent." },
  { role: "user", content: "Where does 8JX2WO go?" },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"code":"8JX2WO"}' } }] },
  { role: "tool", tool_call_id: "call_1", content: "Boston to Seattle" },
  { role: "assistant", content: "Boston to Seattle." },
  { role: "user", content: "Is it direct?" },
];

/**
 * The rows every fuzzed route reads: a conversation with a tool exchange, a
 * fork, an artifact (a tool result past the size threshold), a checkpoint, a
 * saved policy, a custom model and a recorded proxy call, plus conversations
 * for the DELETE routes to remove.
 */
export async function createFuzzFixtures(db: Database, proxyHeaders: Record<string, string>): Promise<FuzzIds> {
  const created = (await send(createConversationRoute as Handler, { title: "fuzzed", messages: HISTORY })) as {
    conversation: { id: string };
    branch: { id: string };
  };
  const conversationId = created.conversation.id;
  const branchId = created.branch.id;
  await send(appendRoute as Handler, { messages: [{ role: "assistant", content: "Yes." }] }, { branchId });
  await send(
    appendRoute as Handler,
    {
      messages: [
        { role: "user", content: "Show the fare rules." },
        { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "rules", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_2", content: `Fare rules: ${"non-refundable after 24 hours; ".repeat(200)}` },
      ],
    },
    { branchId },
  );
  await send(compactRoute as Handler, { force: true }, { branchId });
  const fork = await forkBranch(db, branchId, { position: 4, name: "fork" });
  const victims: string[] = [];
  for (let index = 0; index < 3; index += 1) {
    const victim = (await send(createConversationRoute as Handler, { title: `victim ${index}`, messages: HISTORY.slice(0, 2) })) as {
      conversation: { id: string };
    };
    victims.push(victim.conversation.id);
  }
  const policy = (await send(policiesRoute as Handler, { name: "fuzz policy", policy: policyOfSettings(DEFAULT_SETTINGS) })) as { policy: { id: string } };
  const model = {
    label: "Fuzz 7B",
    provider: "other",
    contextWindow: 32_000,
    maxOutputTokens: 2_000,
    tokenizer: { encoding: "cl100k_base", exact: false },
    mediaRule: "openai",
  };
  const putModel = new Request("http://127.0.0.1/api/models/fuzz-7b", {
    method: "PUT",
    body: JSON.stringify(model),
    headers: { "content-type": "application/json" },
  });
  const savedModel = await (modelRoute as Handler)(putModel, { params: Promise.resolve({ id: "fuzz-7b" }) });
  if (!savedModel.ok) throw new Error(`fixture model failed with ${savedModel.status}`);
  await send(chatCompletionsRoute as Handler, { model: "gpt-4o", messages: HISTORY.slice(0, 2) }, {}, proxyHeaders);
  await getProxyRecorder().idle();
  const recorded = await findConversationByRecordKey(db, "fuzz");
  const calls = recorded ? (await listCallsByConversationId(db, recorded.id, { limit: 10 })).calls.map((entry) => entry.id) : [];
  const exportSession = async (id: string, query = "") => {
    const exported = await (sessionExportRoute as Handler)(new Request(`http://127.0.0.1/api/sessions/x${query}`), {
      params: Promise.resolve({ conversationId: id }),
    });
    return exported.text();
  };
  return {
    conversation: [conversationId, ...(recorded ? [recorded.id] : [])],
    victim: victims,
    branch: [branchId, fork.id],
    checkpoint: (await getCheckpointsByBranchId(db, branchId)).map((entry) => entry.id),
    artifact: (await getArtifactsByBranchId(db, branchId)).map((entry) => entry.id),
    handle: (await getOffloadedContentsByBranchId(db, branchId)).map((entry) => entry.handle),
    policy: [policy.policy.id],
    model: ["fuzz-7b", "gpt-4o"],
    call: calls,
    sessionFiles: [
      await exportSession(conversationId),
      await exportSession(conversationId, "?requests=omitted"),
      ...(recorded ? [await exportSession(recorded.id)] : []),
    ],
    localSession: [],
  };
}
