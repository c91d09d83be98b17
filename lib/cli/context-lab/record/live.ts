import type { LiveEvent } from "@/lib/live/events";
import { authorizationOf } from "../ports";

/** A conversation the label recorded into: `<label>`, `<label>#<opening>` (P-S3) or `<label>/<session>` (P-S1). */
export interface LabelConversation {
  id: string;
  title: string;
  recordKey: string;
}

export interface RecordingWatchOptions {
  url: string;
  token: string | undefined;
  label: string;
  /** Called once per conversation of the label, when its first call of this run arrives. */
  onConversation(conversation: LabelConversation): void;
}

/** Follows the app's live events for the calls recorded under a label (PK-10). */
export interface RecordingWatch {
  /** Resolves once subscribed: calls made after it are seen. */
  ready: Promise<void>;
  conversations(): LabelConversation[];
  /** Ids of this run's calls, started and finished. */
  started(): Set<string>;
  /**
   * Waits until every started call is recorded and no event came for `quietMs` (recording follows the
   * answer, so the agent's last call may still be on its way), or `timeoutMs` passed; true when none is left pending.
   */
  settle(quietMs: number, timeoutMs: number): Promise<boolean>;
  close(): void;
}

type ConversationFields = { title: string; recordKey: string | null };

export function belongsToLabel(recordKey: string | null, label: string): boolean {
  return recordKey === label || (recordKey?.startsWith(`${label}#`) ?? false) || (recordKey?.startsWith(`${label}/`) ?? false);
}

/** Server-sent events from a fetch body: `event:` and `data:` lines up to each blank line. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.search(/\r?\n\r?\n/);
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
      let event = "message";
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) yield { event, data: data.join("\n") };
      end = buffer.search(/\r?\n\r?\n/);
    }
  }
}

export function watchRecording(options: RecordingWatchOptions): RecordingWatch {
  const controller = new AbortController();
  const headers = { accept: "text/event-stream", ...authorizationOf(options.token) };
  const known = new Map<string, Promise<LabelConversation | null>>();
  const announced = new Map<string, LabelConversation>();
  const started = new Set<string>();
  const recorded = new Set<string>();
  let lastEventAt = Date.now();

  const conversationOf = (id: string, record?: ConversationFields): Promise<LabelConversation | null> => {
    const cached = known.get(id);
    if (cached) return cached;
    const fields: Promise<ConversationFields | null> = record
      ? Promise.resolve(record)
      : fetch(`${options.url}/api/conversations/${encodeURIComponent(id)}`, { headers: authorizationOf(options.token) })
          .then((response) => response.json() as Promise<{ conversation?: ConversationFields }>)
          .then(
            (body) => body.conversation ?? null,
            () => null,
          );
    const found = fields.then((conversation) =>
      conversation?.recordKey && belongsToLabel(conversation.recordKey, options.label)
        ? { id, title: conversation.title, recordKey: conversation.recordKey }
        : null,
    );
    known.set(id, found);
    return found;
  };

  const handle = async (event: LiveEvent) => {
    const conversation = await conversationOf(event.conversationId, event.type === "conversation-updated" ? event.conversation : undefined);
    if (!conversation) return;
    lastEventAt = Date.now();
    if (event.type !== "exchange-started" && event.type !== "exchange-recorded") return;
    started.add(event.exchange.id);
    if (event.type === "exchange-recorded") recorded.add(event.exchange.id);
    if (!announced.has(conversation.id)) {
      announced.set(conversation.id, conversation);
      options.onConversation(conversation);
    }
  };

  const ready = (async () => {
    const response = await fetch(`${options.url}/api/live/conversations`, { headers, signal: controller.signal });
    if (!response.ok || !response.body) throw new Error(`context-lab: the live stream at ${options.url}/api/live/conversations answered ${response.status}`);
    const events = readEvents(response.body);
    // Handled one after another, so a conversation's events keep their order.
    void (async () => {
      let queue = Promise.resolve();
      try {
        for await (const { event, data } of events) {
          if (!event.startsWith("exchange-") && event !== "conversation-updated") continue;
          const parsed = JSON.parse(data) as LiveEvent;
          // A conversation that cannot be read is left out of the summary, never the end of the watch.
          queue = queue.then(() => handle(parsed)).catch(() => undefined);
        }
      } catch {
        // Closed by close(), or the app went away: the summary reports what was seen.
      }
    })();
  })();

  const pending = () => [...started].filter((id) => !recorded.has(id)).length;
  return {
    ready,
    conversations: () => [...announced.values()],
    started: () => new Set(started),
    settle: async (quietMs, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      lastEventAt = Date.now();
      while (Date.now() < deadline && (pending() > 0 || Date.now() - lastEventAt < quietMs)) await new Promise((resolve) => setTimeout(resolve, 50));
      return pending() === 0;
    },
    close: () => controller.abort(),
  };
}
