"use client";

import { useCallback, useMemo, useRef, type ReactNode } from "react";
import { roundOfEachMessage } from "@/lib/context/light";
import type { RunResult } from "@/lib/playground/protocol";
import { forkPositionOf } from "@/lib/store";
import { usePlaygroundStore, usePlaygroundStoreApi } from "@/lib/store/provider";
import type { ApiClient } from "@/lib/client";
import { systemPromptShifts } from "@/lib/formats";
import { failedCallsByPosition } from "@/components/calls/failed-markers";
import { useCalls } from "@/components/calls/use-calls";
import { ConversationView } from "@/components/conversation/conversation-view";
import { ConversationSearch } from "@/components/conversation/conversation-search";
import { MarkLegend } from "@/components/conversation/mark-legend";
import { effectsAfter, effectsBefore } from "@/components/conversation/row-marks";
import { rowFactsOf } from "@/components/conversation/row-facts";
import { useSessionOverview } from "@/components/conversation/use-session-overview";
import { approximately, sentTerms } from "@/components/pipeline/format";
import { SessionLine } from "./session-line";
import styles from "./workspace.module.css";
import ui from "@/components/ui/ui.module.css";

const number = (value: number) => value.toLocaleString("en");
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** What the next request sends, as the trace and the Prompt tab say it: the one verdict, its reply priming a term of its own. */
function SentTokens({ request }: { request: RunResult["request"] }) {
  const approximate = !request.tokenizer.exact;
  if (!request.verdict.ok) {
    return (
      <span className={styles.danger} title={request.verdict.reason}>
        {` → nothing sent: needs ${approximately(approximate)}${number(request.verdict.tokens.total)}, limit ${number(request.verdict.limit)}`}
      </span>
    );
  }
  return <span title={request.tokenizer.approximation}>{` → ${sentTerms(request.verdict.tokens, approximate)} sent`}</span>;
}

/**
 * The conversation column: before/after toggle, counts, find, legend and the
 * virtualised messages, wired to the store; `footer` under them (the chat
 * recorder). With `callsClient`, failed model calls are marked where they were made.
 */
export function ConversationPanel({ footer, callsClient }: { footer?: ReactNode; callsClient?: ApiClient }) {
  const view = usePlaygroundStore((state) => state.view);
  const messages = usePlaygroundStore((state) => state.messages);
  // While only the page's first screen is here, the counts are the branch's; rounds and tokens wait for the rest.
  const partial = usePlaygroundStore((state) => state.partial);
  const count = usePlaygroundStore((state) => (state.partial ? Math.max(state.branch?.length ?? 0, state.messages.length) : state.messages.length));
  const tokens = usePlaygroundStore((state) => state.tokens);
  const result = usePlaygroundStore((state) => state.result);
  const selected = usePlaygroundStore((state) => state.selectedMessage);
  const hoveredCall = usePlaygroundStore((state) => state.hoveredCall);
  const loadStatus = usePlaygroundStore((state) => state.loadStatus);
  const loadError = usePlaygroundStore((state) => state.loadError);
  const runError = usePlaygroundStore((state) => state.runError);
  const repairs = usePlaygroundStore((state) => state.repairs);
  const setView = usePlaygroundStore((state) => state.setView);
  const selectMessage = usePlaygroundStore((state) => state.selectMessage);
  const setHoveredCall = usePlaygroundStore((state) => state.setHoveredCall);
  const openHandle = usePlaygroundStore((state) => state.openHandle);
  const forkAt = usePlaygroundStore((state) => state.forkAt);
  const store = usePlaygroundStoreApi();
  const canFork = usePlaygroundStore((state) => state.branch !== null && !state.forking);
  const conversationId = usePlaygroundStore((state) => state.conversation?.id ?? null);
  const branchId = usePlaygroundStore((state) => state.branch?.id ?? null);
  const tree = usePlaygroundStore((state) => state.tree);
  const callsRevision = usePlaygroundStore((state) => state.callsRevision);
  const setTab = usePlaygroundStore((state) => state.setTab);
  const failed = useCalls(callsClient ?? null, callsClient ? conversationId : null, callsRevision, true).calls;
  const records = usePlaygroundStore((state) => state.records);
  const positions = usePlaygroundStore((state) => state.positions);
  const overview = useSessionOverview(callsClient ?? null, conversationId, branchId, records.length + callsRevision);
  const facts = useMemo(() => rowFactsOf(records, positions), [records, positions]);
  // P-SP2: the turns sent with another system prompt than those before them, by stored position, shown on the conversation as loaded.
  const systemPrompts = useMemo(() => {
    const shifts = new Map(systemPromptShifts(records).map((shift) => [shift.position, shift]));
    if (shifts.size === 0) return undefined;
    return new Map(positions.flatMap((position, index) => (shifts.has(position) ? [[index, shifts.get(position)!] as const] : [])));
  }, [records, positions]);
  // Compactions and subagents are placed by stored position and call id: shown on the conversation as loaded.
  const compactions = useMemo(() => {
    if (!overview || overview.compactions.length === 0) return undefined;
    const byPosition = new Map(overview.compactions.map((compaction) => [compaction.position, compaction]));
    return new Map(positions.flatMap((position, index) => (byPosition.has(position) ? [[index, byPosition.get(position)!] as const] : [])));
  }, [overview, positions]);
  const subagents = useMemo(
    () =>
      overview && overview.subagents.length > 0
        ? new Map(overview.subagents.flatMap((subagent) => (subagent.callId ? [[subagent.callId, subagent] as const] : [])))
        : undefined,
    [overview],
  );
  const failedCalls = useMemo(
    () => (branchId === null || failed.length === 0 ? undefined : failedCallsByPosition(failed, branchId, tree)),
    [failed, branchId, tree],
  );

  const fork = useCallback(
    (index: number) => {
      const position = forkPositionOf(store.getState(), index);
      if (position !== null) void forkAt(position);
    },
    [store, forkAt],
  );

  const after = view === "after" && result !== null;
  const shown = after ? result.history : messages;
  const shownTokens = after ? result.tokens : tokens;
  const effects = useMemo(
    () => (view === "after" ? (result ? effectsAfter(result) : undefined) : effectsBefore(result, messages.length)),
    [view, result, messages.length],
  );
  const shownMessages = useRef<HTMLDivElement>(null);
  const rounds = useMemo(() => Math.max(0, ...roundOfEachMessage(messages)) + (messages.length > 0 ? 1 : 0), [messages]);
  const loadedTokens = useMemo(() => sum(tokens), [tokens]);
  // The counts follow the shown result's tokenizer: a recount comes with it (lib/store/runs.ts).
  const approximate = result !== null && !result.request.tokenizer.exact;

  return (
    <section className={styles.conversation} aria-label="Conversation">
      <div className={styles.toolbar}>
        <div className={ui.segmented} role="group" aria-label="History shown">
          <button
            type="button"
            aria-pressed={view === "before"}
            onClick={() => setView("before")}
            title="The conversation as loaded, marked with what each processor did (b)"
          >
            Before · {number(count)}
          </button>
          <button type="button" aria-pressed={view === "after"} onClick={() => setView("after")} disabled={!result} title="The history the model would get (b)">
            After · {result ? number(result.history.length) : "…"}
          </button>
        </div>
        <p className={styles.stats} aria-label="Conversation totals">
          <span>{number(count)} messages</span>
          <span>{partial ? "…" : number(rounds)} rounds</span>
          <span>
            {partial ? "…" : `${approximately(approximate)}${number(loadedTokens)}`} tokens
            {result ? <SentTokens request={result.request} /> : null}
          </span>
        </p>
        <ConversationSearch messages={shown} selected={selected} onSelect={selectMessage} highlightIn={shownMessages} />
        {overview ? <SessionLine overview={overview} /> : null}
        <MarkLegend />
      </div>
      {loadError ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          The pipeline could not load this conversation: {loadError}
        </p>
      ) : null}
      {runError ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          The pipeline run failed: {runError}
        </p>
      ) : null}
      {repairs.length > 0 && view === "before" ? (
        <p className={ui.notice} data-tone="warning">
          {repairs.length} tool pair repair{repairs.length === 1 ? "" : "s"} before the run: {repairs[0].message}
          {repairs.length > 1 ? " …" : ""}
        </p>
      ) : null}
      <div className={styles.messages} ref={shownMessages}>
        {shown.length === 0 ? (
          <p className={styles.empty}>{loadStatus === "loading" ? "Loading the conversation…" : "This branch has no messages yet."}</p>
        ) : (
          <ConversationView
            label={after ? "Processed history" : "Loaded conversation"}
            messages={shown}
            tokens={shownTokens}
            approximate={approximate}
            effects={effects}
            selected={selected}
            hoveredCall={hoveredCall}
            onSelect={selectMessage}
            onHoverCall={setHoveredCall}
            onOpenHandle={openHandle}
            onFork={canFork ? fork : undefined}
            failedCalls={after ? undefined : failedCalls}
            onOpenCalls={() => setTab("calls")}
            facts={after ? undefined : facts}
            compactions={after ? undefined : compactions}
            systemPrompts={after ? undefined : systemPrompts}
            subagents={subagents}
          />
        )}
      </div>
      {footer}
    </section>
  );
}
