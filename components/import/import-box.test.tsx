import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ImportBox, LARGE_FILE_BYTES, lineOffset } from "./import-box";

afterEach(cleanup);

describe("ImportBox", () => {
  it("reads a dropped file and hands over its text and name", async () => {
    const onFile = vi.fn();
    render(<ImportBox text="" onTextChange={() => undefined} onFile={onFile} />);
    const file = new File(['[{"role":"user","content":"hi"}]'], "chat.json", { type: "application/json" });
    const box = screen.getByLabelText(/^Conversation \(/).parentElement!;
    fireEvent.drop(box, { dataTransfer: { files: [file], types: ["Files"] } });
    await waitFor(() => expect(onFile).toHaveBeenCalledWith('[{"role":"user","content":"hi"}]', "chat.json"));
  });

  it("[IM-12] hands several dropped files over together (a session and its subagents' files), each with its name", async () => {
    const onFile = vi.fn();
    const onFiles = vi.fn();
    render(<ImportBox text="" onTextChange={() => undefined} onFile={onFile} onFiles={onFiles} />);
    const session = new File(['{"type":"user"}'], "s.jsonl");
    const subagent = new File(['{"type":"user","isSidechain":true}'], "agent-a1.jsonl");
    const box = screen.getByLabelText(/^Conversation \(/).parentElement!;
    fireEvent.drop(box, { dataTransfer: { files: [subagent, session], types: ["Files"] } });
    await waitFor(() =>
      expect(onFiles).toHaveBeenCalledWith([
        { text: '{"type":"user","isSidechain":true}', filename: "agent-a1.jsonl" },
        { text: '{"type":"user"}', filename: "s.jsonl" },
      ]),
    );
    expect(onFile).not.toHaveBeenCalled();
  });

  it("lists every issue with its place and selects the line an issue points at", () => {
    const text = '[\n {"role": "user"},\n {"role": "tool"}\n]';
    render(
      <ImportBox
        text={text}
        onTextChange={() => undefined}
        onFile={() => undefined}
        failure={{
          message: "could not import",
          issues: [{ message: "a tool message needs a string tool_call_id", path: "[1].tool_call_id", line: 3, messageIndex: 1 }],
        }}
      />,
    );
    const alert = screen.getByRole("alert", { name: "Import error" });
    expect(alert.textContent).toContain("line 3, message 1 ([1].tool_call_id): a tool message needs a string tool_call_id");
    fireEvent.click(screen.getByRole("button", { name: "Show line 3 in the text" }));
    const area = screen.getByLabelText(/^Conversation \(/) as HTMLTextAreaElement;
    expect(area.value.slice(area.selectionStart, area.selectionEnd)).toBe(' {"role": "tool"}');
    expect(area.value).toBe(text);
  });

  it("hands a file over LARGE_FILE_BYTES over unread, and shows its name instead of its text", async () => {
    const onFile = vi.fn();
    const onLargeFile = vi.fn();
    const large = new File(["x".repeat(LARGE_FILE_BYTES + 1)], "big.json");
    const text = vi.spyOn(large, "text");
    const { rerender } = render(<ImportBox text="" onTextChange={() => undefined} onFile={onFile} onLargeFile={onLargeFile} />);
    fireEvent.change(screen.getByLabelText("Open a conversation file"), { target: { files: [large] } });
    await waitFor(() => expect(onLargeFile).toHaveBeenCalledWith(large));
    expect([onFile.mock.calls.length, text.mock.calls.length]).toEqual([0, 0]);
    rerender(<ImportBox text="" onTextChange={() => undefined} onFile={onFile} largeFile={large} progress={{ sent: 10, total: 100 }} />);
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.getByText(/too large to show here/).textContent).toContain("big.json");
    expect(screen.getByRole("progressbar", { name: "Upload progress" }).getAttribute("value")).toBe("10");
  });

  it("shows a refused import above the text, where the user looks", () => {
    render(<ImportBox text="[]" onTextChange={() => undefined} onFile={() => undefined} failure={{ message: "the body is too large", issues: [] }} />);
    const alert = screen.getByRole("alert", { name: "Import error" });
    const area = screen.getByRole("textbox");
    expect(alert.compareDocumentPosition(area) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("finds line starts", () => {
    expect(lineOffset("a\nbc\nd", 1)).toBe(0);
    expect(lineOffset("a\nbc\nd", 3)).toBe(5);
    expect(lineOffset("a", 9)).toBe(1);
  });
});
