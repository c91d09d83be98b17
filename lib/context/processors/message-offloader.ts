import type { Context } from "../context";
import { contentHandle, offloadMarker, type HandleFactory } from "../handles";
import { isChainSummary, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import { countCharacters, exceedsCharacters } from "../text";

export interface MessageOffloaderOptions {
  /** Characters (code points) a message may hold before it is offloaded. */
  maxMessageSize?: number;
  /**
   * Offload only when the history holds more than this many non-system
   * messages (the config's `offloadThreshold` in the default pipeline); 0 always.
   */
  minMessages?: number;
  name?: string;
  createHandle?: HandleFactory;
}

export { exceedsCharacters };

/**
 * Replaces an oversized user, assistant or tool message's content with an
 * `[[OFFLOADED: handle=off_…]]` marker and keeps the original in
 * `offloaded_messages` (O1); `reloadOffloaded` returns it exactly (O2).
 * @example pipeline.register(new MessageOffloader({ maxMessageSize: 10_000 }))
 */
export class MessageOffloader extends ContextProcessor {
  readonly maxMessageSize: number;
  readonly minMessages: number;
  private readonly createHandle: HandleFactory;

  constructor(options: MessageOffloaderOptions = {}) {
    super("pre_llm_call", { name: options.name ?? "message_offloader" });
    this.maxMessageSize = options.maxMessageSize ?? 10_000;
    this.minMessages = Math.max(0, options.minMessages ?? 0);
    this.createHandle = options.createHandle ?? contentHandle;
  }

  process(ctx: Context): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    if (this.minMessages > 0 && history.filter((message) => message.role !== "system").length <= this.minMessages) return {};
    const existing = ctx.state.get(STATE_KEYS.offloadedMessages) ?? {};
    const stored: Record<string, string> = {};
    const effects: MessageEffect[] = [];
    let next: Message[] | undefined;
    history.forEach((message, index) => {
      // O1: system messages are never offloaded; only the content changes.
      if (message.role === "system" || message.content === null || !exceedsCharacters(message.content, this.maxMessageSize)) return;
      const content = message.content;
      const taken = (handle: string) => {
        const known = stored[handle] ?? existing[handle];
        return known !== undefined && known !== content;
      };
      // Re-runs over the same message reuse its replacement: stable handle, cached token count.
      let replacement = offloadedReplacements.get(message);
      if (!replacement || replacement.factory !== this.createHandle || taken(replacement.handle)) {
        const handle = this.createHandle(content, taken);
        // R1: an offloaded chain summary keeps its prefix, so it still ends no round.
        const marker = isChainSummary(message) ? `${TOOL_CHAIN_SUMMARY_PREFIX} ${offloadMarker(handle)}` : offloadMarker(handle);
        replacement = { factory: this.createHandle, handle, message: { ...message, content: marker } };
        offloadedReplacements.set(message, replacement);
      }
      const { handle } = replacement;
      stored[handle] = content;
      next ??= [...history];
      next[index] = replacement.message;
      effects.push({ kind: "offloaded", before: [index], after: [index], handle, note: `${countCharacters(content)} characters` });
    });
    if (!next) return { effects };
    ctx.state.set(STATE_KEYS.offloadedMessages, { ...existing, ...stored });
    ctx.state.set(STATE_KEYS.history, next);
    return { effects };
  }
}

const offloadedReplacements = new WeakMap<Message, { factory: HandleFactory; handle: string; message: Message }>();
