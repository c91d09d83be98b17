import "server-only";
import { database } from "@/lib/api/database";
import { describeError } from "@/lib/api/errors";
import { EVENT_STREAM_HEADERS } from "@/lib/live";
import { startChatTurn, type ChatTurn } from "./chat";
import { recorderErrorResponse } from "./errors";
import type { ChatStreamEventName, ChatStreamEvents, ChatTurnFailed, ChatTurnInput, ChatTurnOutcome } from "./types";

/** One event of the answer stream in the EventSource wire format. */
export function formatChatEvent<Name extends ChatStreamEventName>(name: Name, payload: ChatStreamEvents[Name]): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** A failure of Context Lab itself after the turn was recorded (a conflict, the database), as the stream's error event. */
function internalFailure(turn: ChatTurn, error: unknown): ChatTurnFailed {
  const { status, body } = describeError(error);
  return {
    status: "error",
    error: { source: "recorder", status, type: body.error.code, code: body.error.code, message: body.error.message, body: null, retryAfter: null, headers: {} },
    exchangeId: null,
    recorded: turn.turn.recorded,
    checkpoints: [],
    summarizer: { kind: "extractive", calls: 0, fallbacks: [] },
    prompt: null,
  };
}

const TERMINAL_EVENT = { ok: "done", budget_exceeded: "budget-exceeded", error: "error" } as const;

/** `event: turn-recorded`, `delta`s as the model streams, then one of `done`, `budget-exceeded`, `error`. */
function eventStream(turn: ChatTurn, abort: AbortController): Response {
  const encoder = new TextEncoder();
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (open) controller.enqueue(encoder.encode(text));
      };
      send(formatChatEvent("turn-recorded", turn.turn));
      let outcome: ChatTurnOutcome;
      try {
        outcome = await turn.answer((delta) => send(formatChatEvent("delta", delta)));
      } catch (error) {
        outcome = internalFailure(turn, error);
      }
      const name = TERMINAL_EVENT[outcome.status];
      send(formatChatEvent(name, outcome as never));
      if (open) controller.close();
      open = false;
    },
    cancel() {
      // The browser stopped reading (Stop, or the tab went away): stop the model too; the turn stays recorded.
      open = false;
      abort.abort();
    },
  });
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
}

/** The whole outcome as JSON: 200 with the reply or the budget stop; the upstream's status (and retry-after) on its error. */
function jsonResponse(outcome: ChatTurnOutcome): Response {
  if (outcome.status !== "error") return Response.json(outcome);
  const { error } = outcome;
  const headers: Record<string, string> = {};
  if (error.headers["retry-after"]) headers["retry-after"] = error.headers["retry-after"];
  const code = error.source === "upstream" ? "upstream_error" : error.type;
  const message = error.source === "upstream" ? `the upstream answered ${error.status}: ${error.message}` : error.message;
  const status = error.status >= 400 && error.status <= 599 && error.status !== 499 ? error.status : 502;
  return Response.json({ ...outcome, error: { ...error, code, message, upstreamCode: error.code } }, { status, headers });
}

/**
 * `POST /api/branches/[branchId]/chat` once its body is validated: records
 * the turn, then answers as an event stream (default) or, with `stream:
 * false`, as JSON. Refusals before anything is written are plain JSON errors.
 */
export async function answerChatRequest(request: Request, branchId: string, input: ChatTurnInput): Promise<Response> {
  const abort = new AbortController();
  try {
    const signal = AbortSignal.any([request.signal, abort.signal]);
    const turn = await startChatTurn(database(), branchId, input, { signal });
    if (input.stream === false) return jsonResponse(await turn.answer());
    return eventStream(turn, abort);
  } catch (error) {
    return recorderErrorResponse(error);
  }
}
