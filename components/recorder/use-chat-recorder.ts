"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "@/lib/client";
import type { Message } from "@/lib/context/light";
import type { MessageRecord } from "@/lib/db";
import type { ChatDelta, ChatTurnInput, ChatTurnOutcome, ChatTurnRecorded } from "@/lib/chat/types";
import type { ChatApi } from "./chat-api";

/** A tool call as its pieces stream in. */
export interface DraftToolCall {
  index: number;
  id: string | null;
  name: string;
  arguments: string;
}

/** The assistant's reply as far as it has streamed. */
export interface DraftReply {
  text: string;
  toolCalls: DraftToolCall[];
}

export type RecorderPhase = "idle" | "sending" | "streaming";

export interface ChatRecorderState {
  phase: RecorderPhase;
  /** The reply streaming now, or the last one streamed until the next send. */
  draft: DraftReply | null;
  /** The turn the current call recorded. */
  turn: ChatTurnRecorded | null;
  outcome: ChatTurnOutcome | null;
  /** A refusal (422, 409 not configured) or a broken connection. */
  error: ApiError | null;
  /** When the outcome arrived (retry-after counts from here). */
  outcomeAt: number | null;
}

const IDLE: ChatRecorderState = { phase: "idle", draft: null, turn: null, outcome: null, error: null, outcomeAt: null };

/** Adds one streamed piece to the draft reply. */
export function applyDelta(draft: DraftReply, delta: ChatDelta): DraftReply {
  if (delta.type === "text") return { ...draft, text: draft.text + delta.text };
  const toolCalls = [...draft.toolCalls];
  const at = toolCalls.findIndex((call) => call.index === delta.index);
  const current = at >= 0 ? toolCalls[at] : { index: delta.index, id: null, name: "", arguments: "" };
  const next = { ...current, id: delta.id ?? current.id, name: current.name + (delta.name ?? ""), arguments: current.arguments + delta.arguments };
  if (at >= 0) toolCalls[at] = next;
  else toolCalls.push(next);
  return { ...draft, toolCalls };
}

/** A stored assistant message as a finished draft. */
export function replyOf(message: Message): DraftReply {
  return {
    text: typeof message.content === "string" ? message.content : "",
    toolCalls: (message.tool_calls ?? []).map((call, index) => ({ index, id: call.id, name: call.function.name, arguments: call.function.arguments })),
  };
}

export interface UseChatRecorderOptions {
  api: ChatApi;
  branchId: string;
  /** Messages the call recorded (the turn as soon as it is stored, then the reply), for the conversation view. */
  onRecorded?: (records: MessageRecord[]) => void;
  /** The call ended after writing something (a turn, a reply, a checkpoint): views that load from the API should reload. */
  onSettled?: (outcome: ChatTurnOutcome | null) => void;
}

/** The recorder's call state: send a turn, watch its reply stream in, stop it, read its outcome. */
export function useChatRecorder({ api, branchId, onRecorded, onSettled }: UseChatRecorderOptions) {
  const [state, setState] = useState<ChatRecorderState>(IDLE);
  const controller = useRef<AbortController | null>(null);
  const callbacks = useRef({ onRecorded, onSettled });
  useEffect(() => {
    callbacks.current = { onRecorded, onSettled };
  }, [onRecorded, onSettled]);
  useEffect(() => () => controller.current?.abort(), []);

  const send = useCallback(
    async (input: ChatTurnInput): Promise<ChatTurnOutcome | null> => {
      if (controller.current) return null;
      const abort = new AbortController();
      controller.current = abort;
      setState({ ...IDLE, phase: "sending" });
      let recordedSomething = false;
      try {
        const outcome = await api.sendTurn(branchId, input, {
          signal: abort.signal,
          onEvent: (event) => {
            if (event.name === "turn-recorded") {
              recordedSomething = event.data.recorded.length > 0;
              if (event.data.recorded.length > 0) callbacks.current.onRecorded?.(event.data.recorded);
              setState((current) => ({ ...current, phase: "streaming", turn: event.data, draft: { text: "", toolCalls: [] } }));
            } else if (event.name === "delta") {
              setState((current) => ({ ...current, draft: applyDelta(current.draft ?? { text: "", toolCalls: [] }, event.data) }));
            }
          },
        });
        // The stored reply is what counts: it replaces the streamed pieces (the same text, unless the stream skipped some).
        const draft = (current: ChatRecorderState) => (outcome.status === "ok" ? replyOf(outcome.message.message) : current.draft);
        setState((current) => ({ ...current, phase: "idle", draft: draft(current), outcome, outcomeAt: Date.now() }));
        if (outcome.status === "ok") callbacks.current.onRecorded?.([outcome.message]);
        callbacks.current.onSettled?.(outcome);
        return outcome;
      } catch (error) {
        const failure = ApiError.isInstance(error) ? error : new ApiError(0, "network_error", error instanceof Error ? error.message : String(error));
        setState((current) => ({ ...current, phase: "idle", error: failure, outcomeAt: Date.now() }));
        if (recordedSomething) callbacks.current.onSettled?.(null);
        return null;
      } finally {
        controller.current = null;
      }
    },
    [api, branchId],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  const dismiss = useCallback(() => setState(IDLE), []);
  return { ...state, send, stop, dismiss };
}
