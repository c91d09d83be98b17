import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context";
import { historyAsSent, SYSTEM_PROMPT_METADATA, systemPromptChange, systemPromptChangeOf, systemPromptShifts, type PromptRecord } from "./system-prompt";

const system = (content: string): Message => ({ role: "system", content });
const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });
const changed = (message: Message, prompt: Message[]): PromptRecord => ({ message, metadata: { [SYSTEM_PROMPT_METADATA]: systemPromptChange(prompt) } });

/** A branch recorded from three calls: the clock moved at calls 2 and 3; call 3 also dropped the second system message. */
const BRANCH: PromptRecord[] = [
  { message: system("Now: 20:10") },
  { message: system("Be brief.") },
  { message: user("u1") },
  { message: assistant("a1") },
  changed(user("u2"), [system("Now: 20:11"), system("Be brief.")]),
  { message: assistant("a2") },
  changed(user("u3"), [system("Now: 20:12")]),
  { message: assistant("a3") },
];

describe("system prompts along a recorded branch", () => {
  it("[P-SP2] lists each change with the prompt before and after it", () => {
    expect(systemPromptShifts(BRANCH)).toEqual([
      { position: 4, before: [system("Now: 20:10"), system("Be brief.")], after: [system("Now: 20:11"), system("Be brief.")] },
      { position: 6, before: [system("Now: 20:11"), system("Be brief.")], after: [system("Now: 20:12")] },
    ]);
    // A mark that repeats the prompt in effect is no change.
    expect(systemPromptShifts([{ message: system("same") }, changed(user("u1"), [system("same")])])).toEqual([]);
  });

  it("[P-SP3] reads back each call's request with the prompt it was sent with, and the branch as its latest call saw it", () => {
    expect(historyAsSent(BRANCH, 3)).toEqual([system("Now: 20:10"), system("Be brief."), user("u1")]);
    expect(historyAsSent(BRANCH, 5)).toEqual([system("Now: 20:11"), system("Be brief."), user("u1"), assistant("a1"), user("u2")]);
    expect(historyAsSent(BRANCH)).toEqual([system("Now: 20:12"), user("u1"), assistant("a1"), user("u2"), assistant("a2"), user("u3"), assistant("a3")]);
    // A call that sent no system prompt at all.
    expect(historyAsSent([{ message: system("old") }, changed(user("u1"), [])])).toEqual([user("u1")]);
  });

  it("[P-SP2] ignores metadata that is not a system-prompt change", () => {
    expect(systemPromptChangeOf({ [SYSTEM_PROMPT_METADATA]: "text" })).toBeUndefined();
    expect(systemPromptChangeOf({ [SYSTEM_PROMPT_METADATA]: { messages: [{ content: "no role" }] } })).toBeUndefined();
    expect(systemPromptChangeOf(null)).toBeUndefined();
    expect(systemPromptChangeOf({ [SYSTEM_PROMPT_METADATA]: { messages: [system("x")] } })?.fingerprint).toBe(systemPromptChange([system("x")]).fingerprint);
  });
});
