"use client";

import { useMemo, useState } from "react";
import ui from "@/components/ui/ui.module.css";
import type { Message } from "@/lib/context/light";
import type { MessageRecord } from "@/lib/db";
import { pendingToolCalls, type ChatTurnOutcome } from "@/lib/chat/types";
import { chatApi, type ChatApi } from "./chat-api";
import { OutcomeNotice } from "./outcome-notice";
import { ReplyStream } from "./reply-stream";
import { ToolResultsForm } from "./tool-results-form";
import { TurnComposer } from "./turn-composer";
import { UpstreamSettingsForm, UpstreamStatus } from "./upstream-settings";
import { useChatRecorder } from "./use-chat-recorder";
import { useUpstream } from "./use-upstream";
import styles from "./recorder.module.css";

export interface RecorderPanelProps {
  branchId: string;
  /** The branch's stored messages, in order: pending tool calls come from its last assistant message. */
  messages: readonly Message[];
  /** The conversation's model (its settings), sent with each call. */
  model: string;
  api?: ChatApi;
  /** Messages a call recorded (the turn, then the reply), as soon as they are stored. */
  onRecorded?(records: MessageRecord[]): void;
  /** A call ended after writing something: views that load from the API (checkpoints, state, prompt) should reload. */
  onSettled?(outcome: ChatTurnOutcome | null): void;
  defaultCollapsed?: boolean;
}

/**
 * The chat recorder: type a user turn, watch the configured upstream's reply
 * stream in, paste results for the tool calls it makes; every turn is
 * recorded on the branch with the pipeline applied and checkpoints written
 * as thresholds are crossed.
 */
export function RecorderPanel({ branchId, messages, model, api = chatApi, onRecorded, onSettled, defaultCollapsed = false }: RecorderPanelProps) {
  const [collapsed, setCollapsed] = useState(defaultCollapsed);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const upstream = useUpstream(api);
  const recorder = useChatRecorder({ api, branchId, onRecorded, onSettled });
  const busy = recorder.phase !== "idle";

  // The call's own records count before the live update brings them into `messages`.
  const pending = useMemo(() => {
    const recorded = [...(recorder.turn?.recorded ?? []), ...(recorder.outcome?.recorded ?? [])].filter((record) => record.position >= messages.length);
    const extra = [...new Map(recorded.map((record) => [record.position, record.message])).entries()]
      .sort(([left], [right]) => left - right)
      .map(([, message]) => message);
    return pendingToolCalls([...messages, ...extra]);
  }, [messages, recorder.turn, recorder.outcome]);

  const configured = upstream.view?.configured ?? true;
  const blocked = !configured ? "Configure an upstream to record chats" : pending.length > 0 ? "Answer the pending tool calls first" : null;
  const openSettings = () => {
    setCollapsed(false);
    setSettingsOpen(true);
  };

  return (
    <section className={styles.recorder} aria-label="Chat recorder">
      <header className={styles.header}>
        <h2 className={styles.title}>Chat recorder</h2>
        <UpstreamStatus
          view={upstream.view}
          loading={upstream.loading}
          model={model}
          settingsOpen={settingsOpen}
          onToggleSettings={() => setSettingsOpen((open) => !open)}
        />
        <button
          type="button"
          className={ui.iconButton}
          aria-expanded={!collapsed}
          aria-label={collapsed ? "Show the chat recorder" : "Hide the chat recorder"}
          onClick={() => setCollapsed((value) => !value)}
        >
          {collapsed ? "▴" : "▾"}
        </button>
      </header>
      {settingsOpen && upstream.view ? (
        <UpstreamSettingsForm
          view={upstream.view}
          saving={upstream.saving}
          error={upstream.error?.message ?? null}
          onSave={upstream.save}
          onClose={() => setSettingsOpen(false)}
        />
      ) : null}
      {settingsOpen && !upstream.view && upstream.error ? (
        <p role="alert" className={styles.error}>
          Could not read the upstream settings: {upstream.error.message}
        </p>
      ) : null}
      {collapsed ? null : (
        <div className={styles.body}>
          {recorder.draft ? <ReplyStream draft={recorder.draft} streaming={recorder.phase === "streaming"} /> : null}
          <OutcomeNotice
            outcome={recorder.outcome}
            error={recorder.error}
            outcomeAt={recorder.outcomeAt}
            busy={busy}
            onRetry={() => void recorder.send({})}
            onOpenSettings={openSettings}
          />
          {pending.length > 0 && !busy ? (
            <ToolResultsForm
              key={pending.map((call) => call.id).join(" ")}
              calls={pending}
              disabled={busy}
              onSend={(toolResults) => void recorder.send({ toolResults })}
            />
          ) : null}
          <TurnComposer busy={busy} blocked={blocked} onSend={async (userTurn) => (await recorder.send({ userTurn })) !== null} onStop={recorder.stop} />
        </div>
      )}
    </section>
  );
}
