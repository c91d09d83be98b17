import { describe, expect, it } from "vitest";
import { TOOL_CHAIN_SUMMARY_PREFIX } from "./messages";
import { extractiveSummarizer, head, summarizeToolChain } from "./summarizer";
import { answer, calls, result, system, toolCall, user } from "./test-support/conversation";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const chain = [
  calls(toolCall("call_0", "get_user_details", '{"user_id":"mia_li_3668"}')),
  result("call_0", '{"name":"Mia Li","membership":"gold"}', "get_user_details"),
  { role: "assistant" as const, content: "Now the reservation.", tool_calls: [toolCall("call_0", "get_reservation_details", '{"reservation_id":"ZFA04Y"}')] },
  result("call_0", '{"reservation_id":"ZFA04Y","status":"confirmed"}', "get_reservation_details"),
];

describe("extractiveSummarizer", () => {
  it("[E-SM1] is deterministic", async () => {
    const first = await extractiveSummarizer(chain, { purpose: "tool-chain" });
    expect(await extractiveSummarizer(structuredClone(chain), { purpose: "tool-chain" })).toBe(first);
  });

  it("[E-SM1] a chain summary names each call with its arguments and result head, and what the chain concluded", async () => {
    const summary = await extractiveSummarizer(chain, { purpose: "tool-chain" });
    expect(summary).toBe(
      [
        `${TOOL_CHAIN_SUMMARY_PREFIX} 2 tool calls: get_user_details, get_reservation_details.`,
        '- get_user_details({"user_id":"mia_li_3668"}) → {"name":"Mia Li","membership":"gold"}',
        "- noted: Now the reservation.",
        '- get_reservation_details({"reservation_id":"ZFA04Y"}) → {"reservation_id":"ZFA04Y","status":"confirmed"}',
        'Concluded: {"reservation_id":"ZFA04Y","status":"confirmed"}',
      ].join("\n"),
    );
  });

  it("[E-SM1] pairs reused ids in order and marks a call without result", () => {
    const parallel = [
      calls(toolCall("call_0", "f", "{}"), toolCall("call_0", "g", "{}"), toolCall("call_9", "h", "{}")),
      result("call_0", "first"),
      result("call_0", "second"),
    ];
    const summary = summarizeToolChain(parallel);
    expect(summary).toContain("- f({}) → first");
    expect(summary).toContain("- g({}) → second");
    expect(summary).toContain("- h({}) → (no result)");
    expect(summary.startsWith(`${TOOL_CHAIN_SUMMARY_PREFIX} 3 tool calls: f, g, h.`)).toBe(true);
  });

  it("[E-SM1] keeps only the head of a long result and says how long it was", () => {
    const long = "x".repeat(500);
    const summary = summarizeToolChain([calls(toolCall("a", "dump", "{}")), result("a", long)]);
    expect(summary).toContain(`${"x".repeat(159)}… (500 chars)`);
    expect(summary).not.toContain("x".repeat(161));
  });

  it("[E-SM1] a conversation summary says what each turn asked and answered and which tools ran", async () => {
    const conversation = [
      user("I want to cancel ZFA04Y"),
      calls(toolCall("a", "get_reservation_details")),
      result("a", "{}"),
      calls(toolCall("b", "get_reservation_details")),
      result("b", "{}"),
      calls(toolCall("c", "cancel_reservation")),
      result("c", "{}"),
      answer("Done, it is cancelled."),
      system("Policy reminder"),
      user("Thanks"),
      answer("You're welcome."),
    ];
    expect(await extractiveSummarizer(conversation, { purpose: "conversation", previousSummary: "The user is Mia Li." })).toBe(
      [
        "The user is Mia Li.",
        "- user: I want to cancel ZFA04Y",
        "  tools: get_reservation_details ×2, cancel_reservation",
        "  assistant: Done, it is cancelled.",
        "- note: Policy reminder",
        "- user: Thanks",
        "  assistant: You're welcome.",
      ].join("\n"),
    );
  });

  it("[E-SM1] tells a chain from a conversation when no purpose is given", async () => {
    expect((await extractiveSummarizer(chain)).startsWith(TOOL_CHAIN_SUMMARY_PREFIX)).toBe(true);
    expect(await extractiveSummarizer([user("hi"), answer("hello")])).toBe("- user: hi\n  assistant: hello");
  });

  it("[E-SM1] stays within 4 000 characters, keeping the header and the latest lines", async () => {
    const many = Array.from({ length: 200 }, (_, index) => [user(`question ${index} ${"q".repeat(40)}`), answer(`answer ${index}`)]).flat();
    const summary = await extractiveSummarizer(many, { purpose: "conversation" });
    expect(summary.length).toBeLessThanOrEqual(4_000);
    expect(summary).toMatch(/… \d+ earlier lines omitted/);
    expect(summary).toContain("answer 199");
    expect(summary.split("\n")[0]).toContain("question 0");
  });

  it("[E-SM2] over a long conversation quotes only the lines it keeps, and says what the whole text would keep", async () => {
    let reads = 0;
    const counted = (index: number) => {
      const message = user(`question ${index}\n\twith  spaces`);
      const content = () => {
        reads += 1;
        return `question ${index}\n\twith  spaces`;
      };
      return Object.defineProperty(message, "content", { get: content, enumerable: true });
    };
    const messages = Array.from({ length: 10_000 }, (_, index) => [counted(index), answer(`answer ${index}`), calls(toolCall(`c${index}`, "f", "{}"))]).flat();
    const summary = await extractiveSummarizer(messages, { purpose: "conversation", previousSummary: "Earlier: the user is Mia Li.\n\nShe flies." });
    expect(reads).toBeLessThan(300);
    // The whole text, written line by line, and trimmed as E-SM2 says.
    const whole = ["Earlier: the user is Mia Li.", "She flies."];
    for (let index = 0; index < 10_000; index += 1) {
      if (index > 0) whole.push("  tools: f");
      whole.push(`- user: question ${index} with spaces`, `  assistant: answer ${index}`);
    }
    whole.push("  tools: f");
    const kept: string[] = [];
    let size = whole[0].length + 40;
    for (let index = whole.length - 1; size + whole[index].length + 1 <= 4_000; index -= 1) {
      kept.unshift(whole[index]);
      size += whole[index].length + 1;
    }
    expect(summary).toBe([whole[0], `… ${whole.length - 1 - kept.length} earlier lines omitted`, ...kept].join("\n"));
  });

  it("[E-SM1] never cuts a character in half", async () => {
    const emoji = "😀".repeat(300);
    const summary = await extractiveSummarizer([user(emoji), answer(emoji)], { purpose: "conversation" });
    expect(summary).not.toMatch(LONE_SURROGATE);
    expect(summarizeToolChain([calls(toolCall("a", "f", emoji)), result("a", emoji)])).not.toMatch(LONE_SURROGATE);
    expect(head(`ab${"😀".repeat(5)}`, 4)).toBe("ab😀…");
  });

  it("head flattens whitespace onto one line", () => {
    expect(head("  line one\n\n  line\ttwo  ", 100)).toBe("line one line two");
  });
});
