import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { OffloadMarker } from "@/lib/import";
import type { OffloadedEntry } from "@/lib/playground/protocol";
import { HandleViewer } from "./handle-viewer";

afterEach(cleanup);

const OFFLOADED: OffloadedEntry[] = [
  { handle: "off_aaaaaaaaaaaa", origin: 7, characters: 12_000, tokens: 2_900 },
  { handle: "off_bbbbbbbbbbbb", origin: 3, characters: 40_000, tokens: 9_100 },
];
const MARKERS: OffloadMarker[] = [{ messageIndex: 12, handle: "exo_report_1", marker: "[[OFFLOAD: handle=exo_report_1, type=filesystem]]", engine: "exo" }];
const CONTENT: Record<string, string> = { off_aaaaaaaaaaaa: "the original\nlong message", off_bbbbbbbbbbbb: "another original" };

const loadContent = vi.fn(async (handle: string) => {
  const content = CONTENT[handle];
  if (content === undefined) throw new Error(`unknown offload handle '${handle}': no offloaded message or tool result has it in task 'run 1'`);
  return content;
});

const table = () => screen.getByRole("table", { name: "Offloaded handles" });
const handlesInOrder = () =>
  within(table())
    .getAllByRole("rowheader")
    .map((cell) => cell.textContent);

describe("HandleViewer", () => {
  it("lists the run's handles and the import's markers with size and origin", () => {
    render(<HandleViewer offloaded={OFFLOADED} markers={MARKERS} loadContent={loadContent} />);
    expect(handlesInOrder()).toEqual(["off_bbbbbbbbbbbb", "off_aaaaaaaaaaaa", "exo_report_1"]);
    const row = screen.getByRole("button", { name: "off_aaaaaaaaaaaa" }).closest("tr") as HTMLElement;
    expect(
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["#7", "12,000", "2,900", "this run"]);
    expect(screen.getByText("2 offloaded by this run · 1 imported markers")).toBeTruthy();
  });

  it("sorts by a column, toggling the direction", async () => {
    render(<HandleViewer offloaded={OFFLOADED} markers={MARKERS} loadContent={loadContent} />);
    await userEvent.click(screen.getByRole("button", { name: "Characters" }));
    expect(handlesInOrder()).toEqual(["off_aaaaaaaaaaaa", "off_bbbbbbbbbbbb", "exo_report_1"]);
    expect(screen.getByRole("columnheader", { name: /Characters/ }).getAttribute("aria-sort")).toBe("ascending");
    await userEvent.click(screen.getByRole("button", { name: "Characters" }));
    expect(handlesInOrder()).toEqual(["off_bbbbbbbbbbbb", "off_aaaaaaaaaaaa", "exo_report_1"]);
    expect(screen.getByRole("columnheader", { name: /Characters/ }).getAttribute("aria-sort")).toBe("descending");
  });

  it("opens a handle: loading, then the original with its size, origin and the reload_offloaded exchange", async () => {
    const onSelectHandle = vi.fn();
    const onShowOrigin = vi.fn();
    render(<HandleViewer offloaded={OFFLOADED} loadContent={loadContent} onSelectHandle={onSelectHandle} onShowOrigin={onShowOrigin} />);
    await userEvent.click(screen.getByRole("button", { name: "off_aaaaaaaaaaaa" }));
    expect(onSelectHandle).toHaveBeenCalledWith("off_aaaaaaaaaaaa");
    const detail = screen.getByRole("region", { name: "Handle off_aaaaaaaaaaaa" });
    expect(await within(detail).findByLabelText("Original content")).toHaveProperty("textContent", "the original\nlong message");
    expect(detail.textContent).toContain("25 characters · 2,900 tokens · 2 lines");
    const call = JSON.parse(within(detail).getByLabelText("Tool call").textContent ?? "");
    expect(call.tool_calls[0].function).toEqual({ name: "reload_offloaded", arguments: '{"handle":"off_aaaaaaaaaaaa"}' });
    const result = JSON.parse(within(detail).getByLabelText("Tool message").textContent ?? "");
    expect(result).toEqual({ role: "tool", tool_call_id: call.tool_calls[0].id, content: "the original\nlong message" });
    await userEvent.click(within(detail).getByRole("button", { name: "Show message #7" }));
    expect(onShowOrigin).toHaveBeenCalledWith(7);
  });

  it("copies the content and the tool exchange", async () => {
    const copyText = vi.fn(async (_text: string) => undefined);
    render(<HandleViewer offloaded={OFFLOADED} loadContent={loadContent} copyText={copyText} selectedHandle="off_bbbbbbbbbbbb" />);
    await userEvent.click(await screen.findByRole("button", { name: "Copy content" }));
    expect(copyText).toHaveBeenLastCalledWith("another original");
    expect(await screen.findByText("Copied")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Copy tool call and result" }));
    const [call, result] = JSON.parse(copyText.mock.lastCall?.[0] ?? "[]");
    expect(call.tool_calls[0].function.name).toBe("reload_offloaded");
    expect(result.content).toBe("another original");
  });

  it("shows a clear error for a handle reload_offloaded does not know, and retries", async () => {
    render(<HandleViewer offloaded={OFFLOADED} markers={MARKERS} loadContent={loadContent} />);
    await userEvent.click(screen.getByRole("button", { name: "exo_report_1" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Unknown handle exo_report_1.");
    expect(alert.textContent).toContain("unknown offload handle 'exo_report_1'");
    expect(alert.textContent).toContain("its content was not part of the pasted conversation");
    const calls = loadContent.mock.calls.length;
    await userEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(loadContent.mock.calls.length).toBe(calls + 1);
  });

  it("says a selected handle is unknown when neither the run nor the import has it", () => {
    render(<HandleViewer offloaded={OFFLOADED} loadContent={loadContent} selectedHandle="off_cccccccccccc" />);
    expect(screen.getByRole("alert").textContent).toContain("Unknown handle off_cccccccccccc.");
  });

  it("closes the open handle", async () => {
    const onSelectHandle = vi.fn();
    render(<HandleViewer offloaded={OFFLOADED} loadContent={loadContent} onSelectHandle={onSelectHandle} />);
    await userEvent.click(screen.getByRole("button", { name: "off_aaaaaaaaaaaa" }));
    await userEvent.click(screen.getByRole("button", { name: "Close handle" }));
    expect(onSelectHandle).toHaveBeenLastCalledWith(null);
    expect(screen.queryByRole("region", { name: /^Handle / })).toBeNull();
  });

  it("shows the latest opened handle even when an earlier load resolves later", async () => {
    const pending: Record<string, (content: string) => void> = {};
    const slow = (handle: string) => new Promise<string>((resolve) => (pending[handle] = resolve));
    render(<HandleViewer offloaded={OFFLOADED} loadContent={slow} />);
    await userEvent.click(screen.getByRole("button", { name: "off_aaaaaaaaaaaa" }));
    expect(screen.getByRole("status").textContent).toBe("Loading the original content…");
    await userEvent.click(screen.getByRole("button", { name: "off_bbbbbbbbbbbb" }));
    await act(async () => pending.off_bbbbbbbbbbbb("content of b"));
    await act(async () => pending.off_aaaaaaaaaaaa("content of a"));
    expect(screen.getByLabelText("Original content").textContent).toBe("content of b");
  });

  it("[UI-G5] opens a handle's detail right under its row", async () => {
    render(<HandleViewer offloaded={OFFLOADED} markers={MARKERS} loadContent={loadContent} />);
    await userEvent.click(screen.getByRole("button", { name: "off_bbbbbbbbbbbb" }));
    const detail = screen.getByRole("region", { name: "Handle off_bbbbbbbbbbbb" });
    const row = detail.closest("tr")?.previousElementSibling as HTMLElement;
    expect(within(row).getByRole("rowheader").textContent).toBe("off_bbbbbbbbbbbb");
  });

  it("[UI-G5] fills an imported marker's characters and tokens once its content is loaded", async () => {
    const content = "the report the other engine offloaded";
    const countTokens = vi.fn(async (text: string) => text.split(" ").length);
    render(<HandleViewer offloaded={[]} markers={MARKERS} loadContent={async () => content} countTokens={countTokens} />);
    const row = () => screen.getByRole("button", { name: "exo_report_1" }).closest("tr") as HTMLElement;
    const sizes = () =>
      within(row())
        .getAllByRole("cell")
        .slice(1, 3)
        .map((cell) => cell.textContent);
    expect(sizes()).toEqual(["—", "—"]);
    await userEvent.click(screen.getByRole("button", { name: "exo_report_1" }));
    await waitFor(() => expect(sizes()).toEqual([String(content.length), "6"]));
    expect(countTokens).toHaveBeenCalledWith(content);
    expect(screen.getByRole("region", { name: "Handle exo_report_1" }).textContent).toContain(`${content.length} characters · 6 tokens`);
  });

  it("filters handles by name", async () => {
    render(<HandleViewer offloaded={OFFLOADED} markers={MARKERS} loadContent={loadContent} />);
    await userEvent.type(screen.getByRole("searchbox", { name: "Filter handles" }), "exo");
    expect(handlesInOrder()).toEqual(["exo_report_1"]);
  });

  it("explains the empty state", () => {
    render(<HandleViewer offloaded={[]} loadContent={loadContent} />);
    expect(screen.getByText(/No offloaded content/)).toBeTruthy();
  });
});
