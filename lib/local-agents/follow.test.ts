import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentHome, type AgentHome } from "@/tests/support/agent-home";
import { followOfConversation, followerOfPath, startFollowing, stopAllFollowing, stopFollowing } from "./follow";
import type { LocalImportResult } from "./import";
import { locateSessionFile, type ResolvedSessionFile } from "./paths";
import { agentRootsOf } from "./roots";

let home: AgentHome;
let file: ResolvedSessionFile;
let imports: number[];

const importFile = async (): Promise<LocalImportResult> => {
  imports.push(Date.now());
  return { conversationIds: ["conversation-1"], format: "claude-code", bytes: 0, messageCount: 0 };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  home = createAgentHome();
  file = await locateSessionFile(agentRootsOf({ HOME: home.home }), home.claudeSession);
  imports = [];
});
afterEach(() => {
  stopAllFollowing();
  home.cleanup();
});

describe("SessionFollower", () => {
  it("[LA5] re-imports the file when it grows, and not while it stays the same", async () => {
    startFollowing(file, "conversation-1", { importFile, pollMs: 50, minIntervalMs: 100 });
    await sleep(300);
    expect(imports).toHaveLength(0);
    fs.appendFileSync(file.path, '{"type":"progress"}\n');
    await expect.poll(() => imports.length, { timeout: 3_000 }).toBe(1);
    await sleep(300);
    expect(imports).toHaveLength(1);
  });

  it("[LA5] debounces: a burst of writes is a few imports, never more than one per interval", async () => {
    startFollowing(file, "conversation-1", { importFile, pollMs: 20, minIntervalMs: 200 });
    const started = Date.now();
    for (let line = 0; line < 40; line += 1) {
      fs.appendFileSync(file.path, `{"type":"progress","n":${line}}\n`);
      await sleep(15);
    }
    await sleep(500);
    const elapsed = Date.now() - started;
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.length).toBeLessThanOrEqual(Math.ceil(elapsed / 200) + 1);
    for (let index = 1; index < imports.length; index += 1) expect(imports[index] - imports[index - 1]).toBeGreaterThanOrEqual(190);
  });

  it("[LA5] keeps one follower per file, and stops importing once stopped", async () => {
    startFollowing(file, "conversation-1", { importFile, pollMs: 50, minIntervalMs: 50 });
    const again = startFollowing(file, "conversation-1", { importFile, pollMs: 50, minIntervalMs: 50 });
    expect(again.path).toBe(file.path);
    expect(followOfConversation("conversation-1")?.path).toBe(file.path);
    expect(stopFollowing({ conversationId: "conversation-1" })).toHaveLength(1);
    expect(followerOfPath(file.path)).toBeNull();
    fs.appendFileSync(file.path, '{"type":"progress"}\n');
    await sleep(400);
    expect(imports).toHaveLength(0);
  });

  it("[LA5] keeps the last import's failure and tries again on the next change", async () => {
    let fail = true;
    startFollowing(file, "conversation-1", {
      pollMs: 30,
      minIntervalMs: 50,
      importFile: async () => {
        imports.push(Date.now());
        if (fail) throw new Error("the database went away");
        return { conversationIds: ["conversation-1"], format: "claude-code", bytes: 0, messageCount: 0 };
      },
    });
    fs.appendFileSync(file.path, '{"type":"progress"}\n');
    await expect.poll(() => followOfConversation("conversation-1")?.lastError, { timeout: 3_000 }).toBe("the database went away");
    fail = false;
    fs.appendFileSync(file.path, '{"type":"progress"}\n');
    await expect.poll(() => followOfConversation("conversation-1")?.lastError, { timeout: 3_000 }).toBeNull();
    expect(followOfConversation("conversation-1")?.lastImportAt).not.toBeNull();
  });
});
