import type OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConversations } from "@/lib/db";
import { historyAsSent, systemPromptChangeOf } from "@/lib/formats";
import type { BranchCreatedEvent } from "@/lib/live";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { collectLiveEvents, recordedFor, useProxyHarness } from "./support/harness";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const S: ChatMessage = { role: "system", content: "You plan trips." };
const user = (content: string): ChatMessage => ({ role: "user", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });
/** What the fake upstream answers to a last user message `text`. */
const echo = (text: string) => assistant(`echo: ${text}`);

describe.each(TEST_PROVIDERS)("proxy: branches from diverging histories (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  let live: ReturnType<typeof collectLiveEvents>;
  beforeEach(() => {
    live = collectLiveEvents();
  });
  afterEach(() => live.stop());

  async function send(label: string, messages: ChatMessage[]) {
    const completion = await harness.agent(label).chat.completions.create({ model: "fake-gpt", messages });
    return completion.choices[0].message.content;
  }

  it("forks at the first differing message, and later requests extend whichever branch their history matches", async () => {
    await send("editor", [S, user("u1")]);
    await send("editor", [S, user("u1"), echo("u1"), user("u2")]);
    // The user edits their second message: the histories part at position 3.
    await send("editor", [S, user("u1"), echo("u1"), user("u2 edited")]);
    await send("editor", [S, user("u1"), echo("u1"), user("u2 edited"), echo("u2 edited"), user("u3 on the edit")]);
    await send("editor", [S, user("u1"), echo("u1"), user("u2"), echo("u2"), user("u3 on main")]);
    // An agent that rewrites the model's answer before continuing parts from the edit branch at 4.
    await send("editor", [S, user("u1"), echo("u1"), user("u2 edited"), assistant("rewritten"), user("u4")]);
    await harness.recorded();

    const { branches, histories, exchanges } = await recordedFor(test.db, "editor");
    expect(branches).toHaveLength(3);
    const [main, edit, rewrite] = branches;
    expect(main).toMatchObject({ parentId: null, forkPosition: null, length: 7 });
    expect(edit).toMatchObject({ parentId: main.id, forkPosition: 3, length: 7 });
    expect(rewrite).toMatchObject({ parentId: edit.id, forkPosition: 4, length: 7 });
    expect(histories.get(main.id)).toEqual([S, user("u1"), echo("u1"), user("u2"), echo("u2"), user("u3 on main"), echo("u3 on main")]);
    expect(histories.get(edit.id)).toEqual([S, user("u1"), echo("u1"), user("u2 edited"), echo("u2 edited"), user("u3 on the edit"), echo("u3 on the edit")]);
    expect(histories.get(rewrite.id)).toEqual([S, user("u1"), echo("u1"), user("u2 edited"), assistant("rewritten"), user("u4"), echo("u4")]);
    expect(exchanges.map((exchange) => exchange.branchId)).toEqual([main.id, main.id, edit.id, edit.id, main.id, rewrite.id]);

    const created = live.events.filter((event): event is BranchCreatedEvent => event.type === "branch-created");
    expect(created.map((event) => [event.branch.id, event.branch.parentId, event.branch.forkPosition])).toEqual([
      [edit.id, main.id, 3],
      [rewrite.id, edit.id, 4],
    ]);
  });

  it("[P-S3] a request that opens with another first turn under one key records into a conversation of its own", async () => {
    await send("prompt-tuner", [user("hi")]);
    await send("prompt-tuner", [user("hello")]);
    await send("prompt-tuner", [user("hi"), echo("hi"), user("again")]);
    await harness.recorded();
    const first = await recordedFor(test.db, "prompt-tuner");
    expect(first.branches).toHaveLength(1);
    expect(first.histories.get(first.branches[0].id)).toEqual([user("hi"), echo("hi"), user("again"), echo("again")]);
    const conversations = await getConversations(test.db);
    const second = conversations.find((conversation) => conversation.recordKey?.startsWith("prompt-tuner#"));
    expect(second?.recordKey).toMatch(/^prompt-tuner#[0-9a-f]{8}$/);
    const other = await recordedFor(test.db, second!.recordKey!);
    expect(other.histories.get(other.branches[0].id)).toEqual([user("hello"), echo("hello")]);
  });

  it("[P-S3] a conversation named by X-Context-Lab-Conversation keeps a request that opens otherwise, as a fork at its first turn", async () => {
    const agent = harness.agent("named", { defaultHeaders: { "X-Context-Lab-Conversation": "named-session" } });
    await agent.chat.completions.create({ model: "fake-gpt", messages: [S, user("hi")] });
    await agent.chat.completions.create({ model: "fake-gpt", messages: [S, user("hello")] });
    await harness.recorded();
    expect((await getConversations(test.db)).map((conversation) => conversation.recordKey)).toEqual(["named-session"]);
    const { branches, histories } = await recordedFor(test.db, "named-session");
    expect(branches.map((branch) => branch.forkPosition)).toEqual([null, 1]);
    expect(histories.get(branches[1].id)).toEqual([S, user("hello"), echo("hello")]);
  });

  it("[P-SP1] [P-SP2] a changed system prompt continues the conversation: the turns stay one branch, the first turn sent with it carries it", async () => {
    const brief: ChatMessage = { role: "system", content: "You plan trips. Be brief." };
    await send("prompt-tuner", [S, user("hi")]);
    await send("prompt-tuner", [brief, user("hi"), echo("hi"), user("again")]);
    await send("prompt-tuner", [brief, user("hi"), echo("hi"), user("again"), echo("again"), user("thanks")]);
    await harness.recorded();
    expect((await getConversations(test.db)).map((conversation) => conversation.recordKey)).toEqual(["prompt-tuner"]);
    const { branches, histories, records } = await recordedFor(test.db, "prompt-tuner");
    expect(branches).toHaveLength(1);
    expect(histories.get(branches[0].id)).toEqual([S, user("hi"), echo("hi"), user("again"), echo("again"), user("thanks"), echo("thanks")]);
    const changes = records.get(branches[0].id)!.map((record) => systemPromptChangeOf(record.metadata)?.messages ?? null);
    expect(changes).toEqual([null, null, null, [brief], null, null, null]);
  });

  it("[P-SP2] [P-SP3] a fork inherits the prompts of the turns before it: a turn sent with another prompt than those carries it", async () => {
    const at = (minute: number): ChatMessage => ({ role: "system", content: `You plan trips. It is 20:${minute}.` });
    await send("forked-clock", [at(10), user("u1")]);
    await send("forked-clock", [at(11), user("u1"), echo("u1"), user("u2")]);
    // Edits u2 with the second call's prompt: the fork at 3 holds the prompt of the turns before it, 20:10, not main's change at 3,
    // so the edit carries the prompt it was sent with.
    await send("forked-clock", [at(11), user("u1"), echo("u1"), user("u2 edited")]);
    await harness.recorded();
    const { branches, records } = await recordedFor(test.db, "forked-clock");
    expect(branches.map((branch) => branch.forkPosition)).toEqual([null, 3]);
    const [main, edit] = branches.map((branch) => records.get(branch.id)!);
    expect(main.map((record) => systemPromptChangeOf(record.metadata)?.messages[0].content ?? null)).toEqual([null, null, null, at(11).content, null]);
    expect(edit.map((record) => systemPromptChangeOf(record.metadata)?.messages[0].content ?? null)).toEqual([null, null, null, at(11).content, null]);
    expect(historyAsSent(main).map((message) => message.content)).toEqual([at(11).content, "u1", "echo: u1", "u2", "echo: u2"]);
    expect(historyAsSent(edit, 3).map((message) => message.content)).toEqual([at(10).content, "u1", "echo: u1"]);
    expect(historyAsSent(edit).map((message) => message.content)).toEqual([at(11).content, "u1", "echo: u1", "u2 edited", "echo: u2 edited"]);
  });

  it("forks at the reply when a retried request is answered differently, and adds nothing when it is answered the same", async () => {
    await send("retrier", [S, user("pick a city")]);
    harness.fake.enqueue({ content: "Porto" });
    await send("retrier", [S, user("pick a city")]);
    await send("retrier", [S, user("pick a city")]);
    await harness.recorded();
    const { branches, histories, exchanges } = await recordedFor(test.db, "retrier");
    expect(branches).toHaveLength(2);
    expect(branches[1]).toMatchObject({ parentId: branches[0].id, forkPosition: 2 });
    expect(histories.get(branches[0].id)).toEqual([S, user("pick a city"), echo("pick a city")]);
    expect(histories.get(branches[1].id)).toEqual([S, user("pick a city"), assistant("Porto")]);
    // Every request was recorded on the branch holding its messages; the odd answer went to the fork.
    expect(exchanges.map((exchange) => exchange.branchId)).toEqual([branches[0].id, branches[0].id, branches[0].id]);
  });

  it("records two answers to one history sent in parallel on two branches", async () => {
    await send("parallel", [S, user("u1")]);
    harness.fake.respondWith((request) => ({ content: `answer ${String(request.body?.user)}` }));
    const history = [S, user("u1"), echo("u1"), user("u2")];
    const agent = harness.agent("parallel");
    await Promise.all(["a", "b"].map((name) => agent.chat.completions.create({ model: "fake-gpt", messages: history, user: name })));
    await harness.recorded();
    const { branches, histories } = await recordedFor(test.db, "parallel");
    expect(branches).toHaveLength(2);
    expect(branches[1]).toMatchObject({ parentId: branches[0].id, forkPosition: 4 });
    const answers = branches.map((branch) => histories.get(branch.id)!);
    for (const answer of answers) expect(answer.slice(0, 4)).toEqual(history);
    expect(answers.map((answer) => answer[4].content).sort()).toEqual(["answer a", "answer b"]);
  });

  it("matches a large tool result the memory layer stored as an artifact pointer against the agent's full text", async () => {
    const call = { id: "call_big", type: "function" as const, function: { name: "fetch_report", arguments: "{}" } };
    const report = "row of the report\n".repeat(2_000);
    harness.fake.enqueue({ content: null, toolCalls: [{ id: "call_big", name: "fetch_report", arguments: "{}" }] });
    await send("reporter", [S, user("summarise the report")]);
    const history: ChatMessage[] = [
      S,
      user("summarise the report"),
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "call_big", content: report },
    ];
    await send("reporter", history);
    await send("reporter", [...history, echo("summarise the report"), user("thanks")]);
    await harness.recorded();

    const { branches, records } = await recordedFor(test.db, "reporter");
    expect(branches).toHaveLength(1);
    const stored = records.get(branches[0].id)!;
    expect(stored).toHaveLength(7);
    expect(stored[3].message.content).not.toBe(report);
    expect(stored[3].metadata).toMatchObject({ artifactId: expect.any(String), originalSize: report.length });
  });
});
