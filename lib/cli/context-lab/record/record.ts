import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import type { CallPage, CallSummary } from "@/lib/calls/types";
import { type CliCommand, CliUsageError } from "../arguments";
import { migrateDatabase, spawnApp, waitForApp } from "../app-process";
import { writeBackgroundApp } from "../background";
import type { CliContext } from "../context";
import { resolveDataPlace } from "../home";
import { placeApp, resolveHost } from "../listen";
import { authorizationOf } from "../ports";
import { agentEnvironment, callerUpstreams, labelKey, upstreamVariables } from "./agent-environment";
import { cleanLabel, labelFromCommand } from "./label";
import { type LabelConversation, watchRecording } from "./live";
import { summarizeRecording } from "./summary";
import { adoptCallerUpstreams } from "./upstream";

/** How long the summary waits for the last calls to be recorded after the command exits. */
const SETTLE_QUIET_MS = 1_000;
const SETTLE_TIMEOUT_MS = 15_000;

/** Runs the agent's command with the terminal, and resolves to its exit code (128 + signal number when killed). */
function runAgent(command: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: "inherit", env, shell: process.platform === "win32" });
    // Ctrl+C reaches the agent from the terminal itself; record stays to print the summary.
    const ignore = () => {};
    const terminate = () => child.kill("SIGTERM");
    process.on("SIGINT", ignore);
    process.on("SIGTERM", terminate);
    const done = (code: number) => {
      process.off("SIGINT", ignore);
      process.off("SIGTERM", terminate);
      resolve(code);
    };
    child.once("error", (error) => {
      print(`context-lab: could not run ${command[0]}: ${error.message}`);
      done(127);
    });
    child.once("exit", (code, signal) => done(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  });
}

async function callsOf(url: string, token: string | undefined, conversations: LabelConversation[], ids: Set<string>): Promise<CallSummary[]> {
  const calls: CallSummary[] = [];
  for (const conversation of conversations) {
    let after: string | null = null;
    do {
      const query: string = `limit=200${after ? `&after=${encodeURIComponent(after)}` : ""}`;
      const response = await fetch(`${url}/api/conversations/${encodeURIComponent(conversation.id)}/calls?${query}`, { headers: authorizationOf(token) });
      if (!response.ok) throw new Error(`context-lab: listing the calls of ${conversation.id} answered ${response.status}`);
      const page = (await response.json()) as CallPage;
      calls.push(...page.calls.filter((call) => ids.has(call.id)));
      after = page.nextCursor;
    } while (after);
  }
  return calls;
}

/** `context-lab record [--label L] [--port N] -- <command…>` (PK-7–PK-11). */
export async function runRecord(command: Extract<CliCommand, { kind: "record" }>, context: CliContext): Promise<number> {
  const { env, layout, print } = context;
  const token = env.CONTEXT_LAB_TOKEN?.trim() || undefined;
  const label = cleanLabel(command.label ?? labelFromCommand(command.command));
  const host = resolveHost(env);
  const placement = await placeApp(host, command.port, token, true);
  if (placement.occupant === "locked" && !token) throw new CliUsageError(`the Context Lab at ${placement.url} wants an access token: set CONTEXT_LAB_TOKEN`);
  const upstreams = callerUpstreams(env, placement.url);
  if (placement.occupant === "none") {
    const place = resolveDataPlace(env, context.cwd);
    const log = path.join(place.home, "app.log");
    print(`context-lab: starting Context Lab in the background at ${placement.url} (data ${place.home}, log ${log})`);
    migrateDatabase(layout, place, env);
    const extraEnv = upstreamVariables(upstreams, env);
    const child = spawnApp(layout, place, env, { host, port: placement.port, detached: { logFile: log }, extraEnv });
    if (child.pid) writeBackgroundApp(place.home, { pid: child.pid, url: placement.url, log, startedAt: new Date().toISOString() });
    await waitForApp(placement.url, child, token).catch((error: Error) => {
      throw new Error(`${error.message}; its log is ${log}`);
    });
  } else {
    for (const note of await adoptCallerUpstreams(placement.url, token, upstreams)) print(`context-lab: ${note}`);
  }
  const watch = watchRecording({
    url: placement.url,
    token,
    label,
    onConversation: (conversation) => print(`context-lab: recording "${conversation.recordKey}" → ${placement.url}/c/${conversation.id}`),
  });
  await watch.ready;
  print(`context-lab: ${command.command.join(" ")} runs with its model calls recorded under "${label}"`);
  const exitCode = await runAgent(command.command, agentEnvironment(env, placement.url, labelKey(label, token)), print);
  await watch.settle(SETTLE_QUIET_MS, SETTLE_TIMEOUT_MS);
  watch.close();
  const started = watch.started();
  const calls = await callsOf(placement.url, token, watch.conversations(), started);
  for (const line of summarizeRecording({
    label,
    url: placement.url,
    conversations: watch.conversations(),
    calls,
    unrecorded: started.size - calls.length,
    exitCode,
  })) {
    print(line);
  }
  if (placement.occupant === "none") print(`context-lab: the app keeps running at ${placement.url}; context-lab stop ends it`);
  return exitCode;
}
