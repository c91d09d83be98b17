import type { Context } from "../context";
import { contentHandle, offloadMarker, type HandleFactory } from "../handles";
import { applyEdits, type HistoryEdit } from "../history/edit";
import { indexOf } from "../history/index-of";
import type { ContentPart, Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult, type ProcessorRun } from "../pipeline";
import { STATE_KEYS } from "../state";
import { identity, OutcomeCache } from "./outcome-cache";
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
  /** Never offload the incomplete round (the user's latest turn, the calls and results the model is working on): O5. */
  keepIncompleteRound?: boolean;
}

export { exceedsCharacters };

/** One run's outcome over one history (E-PL6). */
interface Outcome {
  history: readonly Message[];
  stored: Readonly<Record<string, string>>;
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();
const NONE: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Replaces an oversized user, assistant or tool message's content with an
 * `[[OFFLOADED: handle=off_…]]` marker and keeps the original in
 * `offloaded_messages` (E-O1); `reloadOffloaded` returns it exactly (E-O2).
 * Rounds a later window drops are left as they are (E-PL5); it can run on the
 * window's output (E-PL7).
 * @example pipeline.register(new MessageOffloader({ maxMessageSize: 10_000 }))
 */
export class MessageOffloader extends ContextProcessor {
  override readonly preservesRounds = true;
  override readonly runsOnWindow = true;
  readonly maxMessageSize: number;
  readonly minMessages: number;
  readonly keepIncompleteRound: boolean;
  private readonly createHandle: HandleFactory;

  constructor(options: MessageOffloaderOptions = {}) {
    super("pre_llm_call", { name: options.name ?? "message_offloader" });
    this.maxMessageSize = options.maxMessageSize ?? 10_000;
    this.minMessages = Math.max(0, options.minMessages ?? 0);
    this.createHandle = options.createHandle ?? contentHandle;
    this.keepIncompleteRound = options.keepIncompleteRound ?? false;
  }

  process(ctx: Context, _payload?: object, run: ProcessorRun = {}): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const index = indexOf(history);
    // E-PL7: on a window's output, the messages the window dropped still count towards the threshold.
    if (this.minMessages > 0 && index.length - index.systemCount + (run.droppedMessages ?? 0) <= this.minMessages) return {};
    const from = run.roundsKeptLater === undefined ? 0 : index.startOfLastRounds(run.roundsKeptLater);
    // E-O5: what the model is working on stays readable.
    const to = this.keepIncompleteRound && index.rounds > 0 && !index.lastRoundComplete ? index.roundStart(index.rounds - 1) : history.length;
    const existing = ctx.state.get(STATE_KEYS.offloadedMessages) ?? NONE;
    const key = `${this.maxMessageSize}:${from}:${to}:${identity(this.createHandle)}:${identity(existing)}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, this.offload(history, from, to, existing));
    if (outcome.history === history) return {};
    ctx.state.set(STATE_KEYS.offloadedMessages, { ...existing, ...outcome.stored });
    ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }

  private offload(history: readonly Message[], from: number, to: number, existing: Readonly<Record<string, string>>): Outcome {
    const stored: Record<string, string> = {};
    const edits: HistoryEdit[] = [];
    const notes: { handle: string; note: string }[] = [];
    for (let position = from; position < to; position += 1) {
      const message = history[position];
      // E-O1: system messages are never offloaded; only the content changes.
      if (message.role === "system" || message.content === null || !exceedsCharacters(message.content, this.maxMessageSize)) continue;
      const content = message.content;
      const taken = (handle: string) => {
        const known = stored[handle] ?? existing[handle];
        return known !== undefined && known !== content;
      };
      // Re-runs over the same message reuse its replacement: stable handle, cached token count.
      let replacement = offloadedReplacements.get(message);
      if (!replacement || replacement.factory !== this.createHandle || taken(replacement.handle)) {
        const handle = this.createHandle(content, taken);
        replacement = { factory: this.createHandle, handle, message: offloadedCopy(message, offloadMarker(handle)) };
        offloadedReplacements.set(message, replacement);
      }
      stored[replacement.handle] = content;
      edits.push({ from: position, to: position + 1, messages: [replacement.message] });
      notes.push({ handle: replacement.handle, note: `${countCharacters(content)} characters` });
    }
    const { history: next } = applyEdits(history, edits);
    const effects = edits.map(
      (edit, order): MessageEffect => ({ kind: "offloaded", before: [[edit.from, edit.to]], after: [[edit.from, edit.to]], ...notes[order] }),
    );
    return { history: next, stored, effects };
  }
}

/**
 * The message with its text replaced by the marker (E-O1). Every other field
 * stays, the engine mark too, so a chain summary still ends no round (E-R1).
 * Its text parts give way to one marker part where the first stood; other
 * parts (images, audio...) stay in order.
 */
function offloadedCopy(message: Message, marker: string): Message {
  if (!message.parts) return { ...message, content: marker };
  const first = message.parts.findIndex((part) => part.type === "text");
  const parts = message.parts.flatMap((part, index): ContentPart[] => (part.type !== "text" ? [part] : index === first ? [{ ...part, text: marker }] : []));
  return { ...message, content: marker, parts };
}

const offloadedReplacements = new WeakMap<Message, { factory: HandleFactory; handle: string; message: Message }>();
