import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalAgentsClient } from "@/lib/local-agents/client";
import type { AgentRoot, LocalAgentsList, LocalSessionEntry } from "@/lib/local-agents/types";
import { LocalAgentsPage } from "./local-agents-page";

const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push }) }));

afterEach(() => {
  cleanup();
  push.mockReset();
});

const roots: AgentRoot[] = [
  {
    agent: "claude-code",
    dir: "/home/me/.claude",
    chosenBy: "HOME",
    overrides: ["CONTEXT_LAB_CLAUDE_DIR", "CLAUDE_CONFIG_DIR", "HOME"],
    pattern: "projects/…",
  },
  { agent: "codex", dir: "/cfg/codex", chosenBy: "CODEX_HOME", overrides: ["CONTEXT_LAB_CODEX_DIR", "CODEX_HOME", "HOME"], pattern: "sessions/…" },
];

const session: LocalSessionEntry = {
  agent: "claude-code",
  kind: "session",
  path: "/home/me/.claude/projects/-home-me-app/abc.jsonl",
  relativePath: "projects/-home-me-app/abc.jsonl",
  sessionId: "abc",
  parentSessionId: null,
  project: "/home/me/app",
  startedAt: "2026-02-10T21:11:52.438Z",
  modifiedAt: "2026-02-10T21:16:12.381Z",
  model: "claude-opus-4-6",
  bytes: 24_576,
  live: true,
  conversationId: null,
  following: false,
};

function clientAnswering(answers: Record<string, unknown>) {
  const requests: string[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
    const key = `${init.method ?? "GET"} ${String(url)}`;
    requests.push(key);
    return Response.json(answers[key] ?? { error: { code: "not_found", message: `no answer for ${key}` } }, { status: key in answers ? 200 : 404 });
  });
  return { client: createLocalAgentsClient({ fetch }), requests };
}

describe("LocalAgentsPage", () => {
  it("[LA6] with no session, names the folders searched and the variables that move them", () => {
    const list: LocalAgentsList = { roots, sessions: [] };
    render(<LocalAgentsPage initial={list} refreshMs={60_000} />);
    const folders = screen.getByRole("list", { name: "Folders searched" });
    expect(folders.textContent).toContain("/home/me/.claude");
    expect(folders.textContent).toContain("CLAUDE_CONFIG_DIR");
    expect(folders.textContent).toContain("CONTEXT_LAB_CLAUDE_DIR");
    expect(folders.textContent).toContain("/cfg/codex");
    expect(folders.textContent).toContain("from CODEX_HOME");
  });

  it("[LA6] lists a session with its project, model, size and live badge; Import turns into Open", async () => {
    const { client, requests } = clientAnswering({
      "POST /api/local-agents/import": { conversationIds: ["c1"], format: "claude-code", bytes: 10, messageCount: 3 },
      "GET /api/local-agents": { roots, sessions: [{ ...session, conversationId: "c1" }] },
    });
    render(<LocalAgentsPage initial={{ roots, sessions: [session] }} client={client} refreshMs={60_000} />);
    const row = within(screen.getByRole("table", { name: "Sessions on this machine" })).getAllByRole("row")[1];
    for (const text of ["Claude Code", "app", "claude-opus-4-6", "24 KB", "live"]) expect(row.textContent).toContain(text);
    await userEvent.click(screen.getByRole("button", { name: "Import abc.jsonl" }));
    await waitFor(() => expect(screen.getByRole("link", { name: "Open abc.jsonl" }).getAttribute("href")).toBe("/c/c1"));
    expect(requests).toEqual(["POST /api/local-agents/import", "GET /api/local-agents"]);
  });

  it("[LA6] Follow follows the file and opens its conversation; a refusal is shown", async () => {
    const { client } = clientAnswering({ "POST /api/local-agents/follow": { conversationIds: ["c9"], follow: {} } });
    render(<LocalAgentsPage initial={{ roots, sessions: [session] }} client={client} refreshMs={60_000} />);
    await userEvent.click(screen.getByRole("button", { name: "Follow abc.jsonl" }));
    await waitFor(() => expect(push).toHaveBeenCalledWith("/c/c9"));

    const refusing = clientAnswering({});
    cleanup();
    render(<LocalAgentsPage initial={{ roots, sessions: [session] }} client={refusing.client} refreshMs={60_000} />);
    await userEvent.click(screen.getByRole("button", { name: "Follow abc.jsonl" }));
    expect((await screen.findByRole("alert")).textContent).toContain("no answer for POST /api/local-agents/follow");
  });
});
