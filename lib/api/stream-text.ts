import "server-only";
import { yieldToIo } from "@/lib/memory/slices";

/** A response body is written this much at a time, the event loop getting a turn between writes (RL-ST7). */
export const STREAM_CHUNK_CHARACTERS = 64 * 1024;

/** Options of `streamText`. */
export interface StreamTextOptions {
  headers: Record<string, string>;
  /** Called with each piece before it is written: a JSON string's escaping, say. */
  transform?: (piece: string) => string;
  /** Written before the first piece and after the last, untransformed. */
  head?: string;
  tail?: string;
}

/**
 * A response that writes `pieces` as they are made, about
 * STREAM_CHUNK_CHARACTERS at a time with a pause for I/O between writes
 * (RL-ST7): a large export is serialised while other requests are answered,
 * and is never held whole as one more string.
 */
export function streamText(pieces: Iterable<string>, options: StreamTextOptions): Response {
  const encoder = new TextEncoder();
  const iterator = pieces[Symbol.iterator]();
  const transform = options.transform ?? ((piece: string) => piece);
  let pending = options.head ?? "";
  let ended = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await yieldToIo();
      while (!ended && pending.length < STREAM_CHUNK_CHARACTERS) {
        const next = iterator.next();
        if (next.done) {
          ended = true;
          pending += options.tail ?? "";
        } else pending += transform(next.value);
      }
      if (pending.length > 0) controller.enqueue(encoder.encode(pending));
      pending = "";
      if (ended) controller.close();
    },
    cancel() {
      iterator.return?.();
    },
  });
  return new Response(stream, { headers: options.headers });
}

/** The text of a string inside a JSON string literal: `JSON.stringify` without the quotes. */
export function escapeJsonText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
