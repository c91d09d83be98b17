import fs from "node:fs";
import path from "node:path";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup } from "@testing-library/react";
import type { Message } from "@/lib/context";
import { useScreenLayout } from "@/tests/support/screen-layout";
import { ConversationView, type ConversationViewProps } from "./conversation-view";
import { collapsedText, readableText } from "./message-content";
import { findMatches } from "./conversation-search";
import { linkToolCalls } from "./tool-links";
import { layoutRows } from "./row-layout";

const fixtures = path.join(import.meta.dirname, "..", "..", "tests", "fixtures");
const sample = JSON.parse(fs.readFileSync(path.join(fixtures, "tau-bench-airline-sample.json"), "utf8")) as { traj: Message[] }[];
const exo = JSON.parse(fs.readFileSync(path.join(fixtures, "import", "exo-offload.json"), "utf8")) as { messages: Message[] };

afterEach(cleanup);

useScreenLayout();

function view(props: Partial<ConversationViewProps> & { messages: Message[] }) {
  const handlers = { onSelect: vi.fn(), onHoverCall: vi.fn(), onOpenHandle: vi.fn() };
  const utils = render(<ConversationView label="Conversation" selected={null} hoveredCall={null} {...handlers} {...props} />);
  return { ...utils, ...handlers };
}

describe("linkToolCalls", () => {
  it("pairs results with calls positionally when ids repeat across turns", () => {
    const call = (id: string): Message => ({
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name: "f", arguments: "{}" } }],
    });
    const result = (id: string): Message => ({ role: "tool", content: "ok", tool_call_id: id });
    const links = linkToolCalls([
      { role: "user", content: "q" },
      call("call_0"),
      result("call_0"),
      { role: "assistant", content: "a" },
      call("call_0"),
      result("call_0"),
    ]);
    expect(links.result[2]).toBe("1:0");
    expect(links.result[5]).toBe("4:0");
    expect(links.ends.get("4:0")).toEqual([4, 5]);
  });

  it("[E-P2] links an id repeated within one message by position, across a system note standing among the results", () => {
    const calling: Message = {
      role: "assistant",
      content: null,
      tool_calls: ["f", "g"].map((name) => ({ id: "call_0", type: "function" as const, function: { name, arguments: "{}" } })),
    };
    const links = linkToolCalls([
      { role: "user", content: "q" },
      calling,
      { role: "tool", content: "f", tool_call_id: "call_0" },
      { role: "system", content: "note" },
      { role: "tool", content: "g", tool_call_id: "call_0" },
    ]);
    expect(links.calls[1]).toEqual(["1:0", "1:1"]);
    expect([links.result[2], links.result[4]]).toEqual(["1:0", "1:1"]);
    expect(links.ends.get("1:1")).toEqual([1, 4]);
  });

  it("finds the tau-bench sample's rounds and chains", () => {
    const rows = layoutRows(sample[0].traj);
    expect(rows[0].round).toBe(-1);
    expect(rows.filter((row) => row.roundStart).length).toBeGreaterThan(3);
    expect(rows.some((row) => row.chainStart && (row.chainCalls ?? 0) > 0)).toBe(true);
  });
});

describe("findMatches", () => {
  it("finds text, tool names, arguments and call ids, ignoring case", () => {
    const messages = sample[1].traj;
    const calling = messages.findIndex((message) => message.tool_calls?.length);
    const call = messages[calling].tool_calls![0];
    expect(findMatches(messages, call.function.name.toUpperCase())).toContain(calling);
    expect(findMatches(messages, call.id)).toEqual(expect.arrayContaining([calling, calling + 1]));
    expect(findMatches(messages, "   ")).toEqual([]);
    expect(findMatches(messages, "Airline Agent Policy")).toEqual([0]);
  });
});

describe("ConversationView", () => {
  it("renders rounds, roles and token counts, and only a window of a long conversation", () => {
    const messages = Array.from({ length: 10_000 }, (_, index): Message => ({ role: index % 2 === 0 ? "user" : "assistant", content: `message ${index}` }));
    view({ messages, tokens: messages.map(() => 7) });
    const list = screen.getByRole("list", { name: "Conversation" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(100);
    expect(rows[0].textContent).toContain("Round 1");
    expect(rows[0].textContent).toContain("7 tok");
  });

  it("selects a message on click and highlights a call's result while the call is hovered", () => {
    const messages = sample[1].traj;
    const { onSelect, onHoverCall, rerender } = view({ messages });
    const calling = messages.findIndex((message) => message.tool_calls?.length);
    const row = screen.getByRole("listitem", { name: `Message ${calling}, assistant` });
    fireEvent.click(row);
    expect(onSelect).toHaveBeenCalledWith(calling);
    fireEvent.mouseEnter(within(row).getByText(messages[calling].tool_calls![0].function.name).closest("div")!);
    expect(onHoverCall).toHaveBeenCalledWith(`${calling}:0`);
    rerender(
      <ConversationView
        label="Conversation"
        messages={messages}
        selected={calling}
        hoveredCall={`${calling}:0`}
        onSelect={onSelect}
        onHoverCall={onHoverCall}
      />,
    );
    expect(screen.getByRole("listitem", { name: `Message ${calling + 1}, tool` }).getAttribute("data-linked")).toBe("true");
    expect(screen.getByRole("listitem", { name: `Message ${calling}, assistant` }).getAttribute("aria-current")).toBe("true");
  });

  it("collapses long content and expands it on demand", () => {
    const long = Array.from({ length: 40 }, (_, index) => `line ${index}`).join("\n");
    view({ messages: [{ role: "user", content: long }] });
    expect(screen.queryByText(/line 39/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: /Show all 40 lines/ }));
    expect(screen.getByText(/line 39/)).toBeTruthy();
    expect(collapsedText("short")).toBeNull();
  });

  it("lays out JSON tool results for reading and leaves other text alone", () => {
    expect(readableText('{"a":1,"b":[2]}')).toEqual({ text: '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}', json: true });
    expect(readableText("[not json")).toEqual({ text: "[not json", json: false });
    expect(readableText("42")).toEqual({ text: "42", json: false });
  });

  it("forks after a row with one click", () => {
    const onFork = vi.fn();
    view({ messages: sample[5].traj, onFork });
    fireEvent.click(screen.getByRole("button", { name: "Fork a branch after #3" }));
    expect(onFork).toHaveBeenCalledWith(3);
  });

  it("shows offload markers of other engines as handle chips", () => {
    const { onOpenHandle } = view({ messages: exo.messages });
    const chips = screen.getAllByRole("button", { name: /offload handle/ });
    expect(chips.length).toBeGreaterThan(0);
    act(() => chips[0].click());
    expect(onOpenHandle).toHaveBeenCalledTimes(1);
  });

  it("marks what the pipeline did to each message", () => {
    view({
      messages: sample[5].traj,
      effects: sample[5].traj.map((_, index) =>
        index === 1
          ? { marks: [{ kind: "offloaded" as const, processor: "message_offloader", handle: "off_0123456789ab" }], gone: false }
          : { marks: [], gone: index === 2 },
      ),
    });
    expect(screen.getByRole("listitem", { name: "Message 1, user" }).textContent).toContain("offloaded");
    expect(screen.getByRole("button", { name: "Open offloaded handle off_0123456789ab" })).toBeTruthy();
    expect(screen.getByRole("listitem", { name: "Message 2, assistant" }).getAttribute("data-gone")).toBe("true");
  });
});

describe("ConversationView failed calls", () => {
  const messages: Message[] = [
    { role: "system", content: "You are a travel agent." },
    { role: "user", content: "Where does 8JX2WO go?" },
    { role: "assistant", content: "Boston to Seattle." },
  ];

  it("[CA-3] marks a failed call before the message at its position, and after the last one at the history's length", async () => {
    const { rateLimitedCall } = await import("@/components/calls/test-calls");
    const onOpenCalls = vi.fn();
    const failedCalls = new Map([
      [2, [rateLimitedCall("a")]],
      [
        3,
        [
          rateLimitedCall("b", {
            status: null,
            error: { source: "proxy", type: "upstream_timeout", message: "the upstream sent nothing for 600000 ms", code: null },
            retryAfter: null,
            retries: 1,
          }),
        ],
      ],
    ]);
    view({ messages, failedCalls, onOpenCalls });
    const notes = screen.getAllByRole("note");
    expect(notes.map((note) => note.getAttribute("aria-label"))).toEqual(["Failed call: 429", "Failed call: upstream_timeout"]);
    expect(notes[0].textContent).toContain("Rate limit reached for gpt-4o (retry after 2 s)");
    expect(notes[1].textContent).toContain("retry 1");
    // The 429 sits above the assistant's answer that its retry brought.
    const slot = notes[0].closest("[data-index]");
    expect(slot?.getAttribute("data-index")).toBe("2");
    expect(slot?.textContent).toContain("Boston to Seattle.");
    expect(notes[1].closest("[data-index]")).toBeNull();
    fireEvent.click(within(notes[0]).getByRole("button", { name: "Show calls" }));
    expect(onOpenCalls).toHaveBeenCalledOnce();
  });
});

describe("ConversationView system prompt changes", () => {
  it("[P-SP2] marks the first message sent with another system prompt, with the word diff from the one before", () => {
    const messages: Message[] = [
      { role: "system", content: "You plan trips.\nCurrent time: 20:10" },
      { role: "user", content: "u1" },
      { role: "assistant", content: "a1" },
      { role: "user", content: "u2" },
    ];
    const shift = { position: 3, before: [messages[0]], after: [{ role: "system" as const, content: "You plan trips.\nCurrent time: 20:11" }] };
    view({ messages, systemPrompts: new Map([[3, shift]]) });
    const marker = screen.getByRole("note", { name: "System prompt changed" });
    expect(marker.closest("[data-index]")?.getAttribute("data-index")).toBe("3");
    expect(marker.querySelector("del")?.textContent).toBe("10");
    expect(marker.querySelector("ins")?.textContent).toBe("11");
    expect(within(marker).getByText("35 → 35 characters")).toBeTruthy();
  });
});
