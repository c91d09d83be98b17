import { getLiveBus, type LiveBus } from "./bus";
import type { LiveEvent } from "./events";

export const HEARTBEAT_MS = 15_000;
/** Events queued for a client that does not read; past this its stream is closed and EventSource reconnects. */
const MAX_QUEUED_EVENTS = 1_000;
/** EventSource waits this long before reconnecting. */
const RETRY_MS = 3_000;

export interface LiveStreamOptions {
  heartbeatMs?: number;
  bus?: LiveBus;
}

/** Response headers of every event stream: no caching, and no compression or proxy buffering holding events back. */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

/** One event in the EventSource wire format. */
export function formatLiveEvent(event: LiveEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * An EventSource-friendly stream of one conversation's live events (or all
 * conversations' with `ALL_CONVERSATIONS`): `event:` + `data:` JSON, a
 * heartbeat comment every 15 s, and the subscription dropped when the client
 * goes away (request aborted or stream cancelled, whichever Next reports).
 */
export function liveEventResponse(request: Request, conversationId: string, options: LiveStreamOptions = {}): Response {
  const encoder = new TextEncoder();
  const bus = options.bus ?? getLiveBus();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        const send = (text: string) => {
          if (!open) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_EVENTS) {
            stop();
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(text));
        };
        const unsubscribe = bus.subscribe(conversationId, (event) => send(formatLiveEvent(event)));
        const heartbeat = setInterval(() => send(`: heartbeat ${new Date().toISOString()}\n\n`), options.heartbeatMs ?? HEARTBEAT_MS);
        const onAbort = () => {
          if (!open) return;
          stop();
          try {
            controller.close();
          } catch {
            // Already closed or errored by the runtime: nothing left to end.
          }
        };
        stop = () => {
          if (!open) return;
          open = false;
          unsubscribe();
          clearInterval(heartbeat);
          request.signal.removeEventListener("abort", onAbort);
        };
        request.signal.addEventListener("abort", onAbort);
        send(`retry: ${RETRY_MS}\n: subscribed to ${conversationId}\n\n`);
        if (request.signal.aborted) onAbort();
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
}
