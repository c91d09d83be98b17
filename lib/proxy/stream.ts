import "server-only";
import type { Message } from "@/lib/context";
import type { JsonObject, JsonValue } from "@/lib/db";
import type { CompletionOutcome } from "@/lib/upstream/assemble";
import type { RecordedCall } from "./call";
import { AbortReason, describeUpstreamError, networkErrorOf, parseMaybeJson, passthroughHeaders, type CallWatch } from "@/lib/upstream/forward";
import { answerReloads, MAX_RELOAD_ROUNDS, RELOAD_TOOL_NAME, reloadCallsOf, type ReloadRound, type ReloadSource } from "./reload";
import { SseParser, type SseMessage } from "@/lib/upstream/sse";

/** Reads one protocol's event stream on the side: the answer so far, in the protocol's non-streamed shape, and its outcome. */
export interface StreamAssembler {
  /** Events added (`[DONE]` excluded). */
  readonly chunks: number;
  /** An error the upstream sent inside the stream, or null. */
  readonly streamError: unknown;
  add(message: SseMessage): void;
  /** The answer assembled so far, as the upstream would have answered it whole. */
  response(): Record<string, unknown>;
  outcome(): CompletionOutcome;
  /** Whether the stream's final event came (chat's `[DONE]`, Responses' `response.completed`..., Anthropic's `message_stop`). */
  readonly complete: boolean;
  /** Whether the answer so far calls a tool other than `toolName` (a held reload round is then the agent's: PX-R3). */
  answersBeyond(toolName: string): boolean;
}

/** How a stream is read and answered: the protocol's assembler and, when the request offers `reload_offloaded`, the reload loop. */
export interface PassStreamOptions {
  assembler: () => StreamAssembler;
  reloads: StreamReloads | null;
}

/** How a streamed call answers the model's `reload_offloaded` calls itself (PX-R2). */
export interface StreamReloads {
  source: ReloadSource;
  /** Calls the upstream again with the reply and its tool results appended. */
  again(answered: Message[]): Promise<Response>;
  /** The event that ends the agent's stream when a round after a reload was refused (the protocol's error event). */
  failedRound(status: number, answer: JsonValue): string;
}

/** The error of a stream that ended on its own: an error the upstream sent in it, or no final event (PX-F1); null when whole. */
function streamFault(assembler: StreamAssembler): JsonObject | null {
  if (assembler.streamError)
    return { source: "upstream", type: "stream_error", message: "the upstream sent an error inside the stream", body: assembler.streamError as JsonValue };
  if (!assembler.complete)
    return { source: "upstream", type: "stream_incomplete", message: "the stream ended without its final event", chunks: assembler.chunks };
  return null;
}

const encoder = new TextEncoder();

/**
 * Reads an upstream body as fast as it comes, for the agent to take chunk by
 * chunk: a body that errors (a dropped connection) would otherwise discard
 * the chunks it had received but not yet handed out, and they must reach the
 * agent first (the answer waits for the journal before its first byte).
 */
class EagerReader {
  private readonly chunks: Uint8Array[] = [];
  private ended: { error: unknown } | { done: true } | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        this.chunks.push(value);
        this.notify();
      }
      this.ended = { done: true };
    } catch (error) {
      this.ended = { error };
    }
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async read(): Promise<{ done: true } | { done: false; value: Uint8Array }> {
    for (;;) {
      const value = this.chunks.shift();
      if (value) return { done: false, value };
      if (this.ended) {
        if ("error" in this.ended) throw this.ended.error;
        return { done: true };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").includes("text/event-stream");
}

/**
 * Passes an event stream through chunk by chunk as the upstream sends it,
 * reading each chunk on the side to assemble the answer. A stream the
 * upstream drops, or that stalls past the timeout, ends the agent's
 * connection the same way after the chunks received so far. The outcome is
 * journaled before the agent sees the stream end (PX-D5).
 *
 * With `reloads`, each round's chunks are held until they show something
 * for the agent (text, or a call of one of its tools): a round that only
 * calls `reload_offloaded` is answered by the proxy and the upstream called
 * again (at most MAX_RELOAD_ROUNDS times); the agent gets the final round.
 */
export function passStream(call: RecordedCall, watch: CallWatch, first: Response, options: PassStreamOptions): Response {
  const { reloads, assembler: makeAssembler } = options;
  let reader = new EagerReader(first.body!.getReader());
  let parser = new SseParser();
  let assembler = makeAssembler();
  let held: Uint8Array[] | null = reloads ? [] : null;
  const rounds: ReloadRound[] = [];
  let settled: Promise<void> | null = null;
  const settle = (error: JsonObject | null): Promise<void> => {
    if (settled) return settled;
    watch.dispose();
    for (const message of parser.end()) assembler.add(message);
    const completion = assembler.response();
    const streamError = assembler.streamError;
    settled = call.finish({
      status: first.status,
      response: completion as JsonObject,
      error: error ?? streamFault(assembler),
      completion: error || streamError || !assembler.complete ? null : assembler.outcome(),
      reloads: rounds,
    });
    return settled;
  };
  const cut = (error: unknown): JsonObject => {
    const reason = watch.reason;
    const type = reason?.kind === "client" ? "client_closed_request" : reason?.kind === "timeout" ? "upstream_timeout" : "stream_dropped";
    const message = reason?.message ?? `the upstream stream ended before it was complete: ${networkErrorOf(error).message}`;
    return { source: reason?.kind === "client" ? "client" : "upstream", type, message, chunks: assembler.chunks };
  };
  /** The next reload round, when this one only called `reload_offloaded`; else null. */
  const nextRound = async (): Promise<Response | null> => {
    if (!reloads || rounds.length >= MAX_RELOAD_ROUNDS || assembler.streamError || !assembler.complete) return null;
    const reply = assembler.outcome().reply;
    const calls = reloadCallsOf(reply);
    if (!calls || !reply) return null;
    const { messages, round } = await answerReloads(reloads.source, reply, calls);
    rounds.push(round);
    watch.touch();
    return reloads.again(messages);
  };
  const flush = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    for (const chunk of held ?? []) controller.enqueue(chunk);
    held = null;
  };
  let started = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          // PX-F3: an empty first chunk sends the headers now, as the upstream did: a stream cut before its first event
          // then reaches the agent as a cut stream, not as a connection that never answered (which SDKs retry).
          started = true;
          controller.enqueue(new Uint8Array(0));
          return;
        }
        try {
          // Loops while a held reload round produces nothing for the agent yet.
          for (;;) {
            const read = await reader.read();
            if (read.done) {
              for (const message of parser.end()) assembler.add(message);
              const next = held ? await nextRound() : null;
              if (next?.ok && next.body && isEventStream(next)) {
                reader = new EagerReader(next.body.getReader());
                parser = new SseParser();
                assembler = makeAssembler();
                held = [];
                continue;
              }
              if (next && reloads) {
                // The round after a reload failed: the agent's stream ends with the upstream's error, as its protocol sends errors in streams.
                const answer = parseMaybeJson(await next.text());
                controller.enqueue(encoder.encode(reloads.failedRound(next.status, answer)));
                await settle({ ...describeUpstreamError(next.status, answer, next.headers), round: rounds.length });
                controller.close();
                return;
              }
              flush(controller);
              await settle(null);
              controller.close();
              return;
            }
            const value = read.value;
            watch.touch();
            for (const message of parser.push(value)) assembler.add(message);
            if (held) {
              held.push(value);
              if (!assembler.answersBeyond(RELOAD_TOOL_NAME)) continue;
              flush(controller);
              return;
            }
            controller.enqueue(value);
            return;
          }
        } catch (error) {
          flush(controller);
          await settle(cut(error)).catch(() => undefined);
          // Erroring ends the agent's connection; a tick later, so the chunks just written leave the socket first.
          await new Promise((resolve) => setImmediate(resolve));
          controller.error(error);
        }
      },
      cancel() {
        watch.controller.abort(new AbortReason("client", "the agent closed the connection"));
        void settle({ source: "client", type: "client_closed_request", message: "the agent closed the connection", chunks: assembler.chunks }).catch(
          () => undefined,
        );
        void reader.cancel().catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { status: first.status, statusText: first.statusText, headers: passthroughHeaders(first.headers, true) });
}
