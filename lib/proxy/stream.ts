import "server-only";
import type { JsonObject, JsonValue } from "@/lib/db";
import { CompletionAssembler, type CompletionOutcome } from "./assemble";
import type { RecordedCall } from "./call";
import { AbortReason, networkErrorOf, passthroughHeaders, type CallWatch } from "./forward";
import { SseParser, type SseMessage } from "./sse";

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
}

/**
 * Passes an event stream through chunk by chunk as the upstream sends it,
 * reading each chunk on the side to assemble the answer. A stream the
 * upstream drops, or that stalls past the timeout, ends the agent's
 * connection the same way after the chunks received so far.
 */
export function passStream(call: RecordedCall, watch: CallWatch, response: Response, assembler: StreamAssembler = new CompletionAssembler()): Response {
  const reader = response.body!.getReader();
  const parser = new SseParser();
  let settled = false;
  const settle = (error: JsonObject | null) => {
    if (settled) return;
    settled = true;
    watch.dispose();
    for (const message of parser.end()) assembler.add(message);
    const completion = assembler.response();
    const streamError = assembler.streamError;
    call.finish({
      status: response.status,
      response: completion as JsonObject,
      error: error ?? (streamError ? { source: "upstream", type: "stream_error", message: "the upstream sent an error inside the stream", body: streamError as JsonValue } : null),
      completion: error || streamError ? null : assembler.outcome(),
    });
  };
  const cut = (error: unknown): JsonObject => {
    const reason = watch.reason;
    const type = reason?.kind === "client" ? "client_closed_request" : reason?.kind === "timeout" ? "upstream_timeout" : "stream_dropped";
    const message = reason?.message ?? `the upstream stream ended before it was complete: ${networkErrorOf(error).message}`;
    return { source: reason?.kind === "client" ? "client" : "upstream", type, message, chunks: assembler.chunks };
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            settle(null);
            controller.close();
            return;
          }
          watch.touch();
          controller.enqueue(value);
          for (const message of parser.push(value)) assembler.add(message);
        } catch (error) {
          settle(cut(error));
          // Erroring ends the agent's connection; a tick later, so the chunks just written leave the socket first.
          await new Promise((resolve) => setImmediate(resolve));
          controller.error(error);
        }
      },
      cancel() {
        watch.controller.abort(new AbortReason("client", "the agent closed the connection"));
        settle({ source: "client", type: "client_closed_request", message: "the agent closed the connection", chunks: assembler.chunks });
        void reader.cancel().catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: passthroughHeaders(response.headers, true) });
}
