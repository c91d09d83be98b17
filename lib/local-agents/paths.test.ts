import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HttpError } from "@/lib/api/errors";
import { createAgentHome, type AgentHome } from "@/tests/support/agent-home";
import { locateSessionFile } from "./paths";
import { agentRootsOf } from "./roots";

let home: AgentHome;
beforeEach(() => {
  home = createAgentHome();
});
afterEach(() => home.cleanup());

async function refusal(requested: string): Promise<{ status: number; message: string }> {
  try {
    await locateSessionFile(agentRootsOf({ HOME: home.home }), requested);
  } catch (error) {
    if (HttpError.isInstance(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error(`${requested} was accepted`);
}

describe("locateSessionFile", () => {
  it("[LA3] accepts a listed session file and answers its real path", async () => {
    const found = await locateSessionFile(agentRootsOf({ HOME: home.home }), home.codexSession);
    expect(found.path).toBe(fs.realpathSync(home.codexSession));
    expect(found.root.agent).toBe("codex");
  });

  it("[LA3] refuses a path outside every agent's folder with 400, before looking at it", async () => {
    const outside = path.join(home.home, "notes.jsonl");
    fs.writeFileSync(outside, "{}\n");
    expect(await refusal(outside)).toMatchObject({ status: 400 });
    expect(await refusal("/etc/passwd")).toMatchObject({ status: 400 });
    // Missing or not, a path outside is the same 400: the answer tells nothing about the disk.
    expect(await refusal("/no/such/file.jsonl")).toMatchObject({ status: 400 });
  });

  it("[LA3] refuses a relative path and a path climbing out with ..", async () => {
    expect(await refusal("projects/x/y.jsonl")).toMatchObject({ status: 400 });
    const climbing = path.join(home.claudeDir, "projects", "..", "..", "elsewhere.jsonl");
    fs.writeFileSync(path.join(home.home, "elsewhere.jsonl"), "{}\n");
    expect(await refusal(climbing)).toMatchObject({ status: 400 });
  });

  it("[LA3] refuses a file inside an agent's folder that is not a session file", async () => {
    expect(await refusal(path.join(home.claudeDir, "settings.json"))).toMatchObject({ status: 400 });
    expect(await refusal(path.join(home.codexDir, "history.jsonl"))).toMatchObject({ status: 400 });
    expect(await refusal(path.join(home.claudeDir, "projects"))).toMatchObject({ status: 400 });
  });

  it("[LA3] refuses a symbolic link in a session's place that leads out of the agent's folder", async () => {
    const outside = path.join(home.home, "private", "diary.jsonl");
    fs.mkdirSync(path.dirname(outside), { recursive: true });
    fs.writeFileSync(outside, "{}\n");
    const link = path.join(path.dirname(home.claudeSession), "11111111-2222-3333-4444-555555555555.jsonl");
    fs.symlinkSync(outside, link);
    expect(await refusal(link)).toMatchObject({ status: 400 });
  });

  it("[LA3] answers 404 for a session file that is no longer there", async () => {
    fs.rmSync(home.codexSession);
    expect(await refusal(home.codexSession)).toMatchObject({ status: 404 });
  });
});
