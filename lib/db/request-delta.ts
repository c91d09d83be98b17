import { sameJson } from "@/lib/context/light";

/**
 * A request body stored as what it adds to an earlier request of the same
 * branch (PX-D6): its history's items after the ones it repeats, and its other
 * fields except those equal to the earlier request's. Decoding against that
 * earlier request gives the body back exactly, key order included (`sameJson`
 * compares with key order).
 */

/** The body fields that hold a request's history: chat and Anthropic `messages`, Responses `input`. */
const HISTORY_FIELDS = ["messages", "input"] as const;

type Body = Record<string, unknown>;

/** A request as stored against its base request. */
export interface RequestDelta {
  /** The field holding the history. */
  history: (typeof HISTORY_FIELDS)[number];
  /** How many leading history items are the base's (`head`'s count included). */
  kept: number;
  /** D6.7 The request's own first history items standing in for the base's as many: a chat request's changed system prompt. */
  head?: unknown[];
  /** The body in its own key order, the history cut to the items after `kept`, without the fields in `same`. */
  body: Body;
  /** Fields whose value is the base's (tools, system, parameters), in the body's key order. */
  same: string[];
}

function isBody(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function historyField(body: Body): RequestDelta["history"] | null {
  return HISTORY_FIELDS.find((field) => Array.isArray(body[field])) ?? null;
}

/** How many items at the start of a history are instructions (chat `system` or `developer` messages). */
function leadingInstructions(items: readonly unknown[]): number {
  let count = 0;
  const isInstruction = (item: unknown) => isBody(item) && (item.role === "system" || item.role === "developer");
  while (count < items.length && isInstruction(items[count])) count += 1;
  return count;
}

/**
 * The JSON text of a history item, kept per item object: a call's items are
 * its successor's base items (the recorder keeps the body), so each item is
 * written out once, not once per comparison (PX-C1).
 */
const itemTexts = new WeakMap<object, string>();

function itemText(item: unknown): string {
  if (typeof item !== "object" || item === null) return JSON.stringify(item) ?? "undefined";
  let text = itemTexts.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    itemTexts.set(item, text);
  }
  return text;
}

function sameItem(left: unknown, right: unknown): boolean {
  return left === right || itemText(left) === itemText(right);
}

/**
 * D6.1 The request as a delta against `base`, or null when it is not worth one:
 * either is not a JSON object, they keep their history in different fields,
 * or the request repeats none of the base's history items.
 */
export function encodeRequest(base: unknown, request: unknown): RequestDelta | null {
  if (!isBody(base) || !isBody(request)) return null;
  const history = historyField(request);
  if (history === null || historyField(base) !== history) return null;
  const baseItems = base[history] as unknown[];
  const items = request[history] as unknown[];
  // PX-D6.7: a system prompt that changes every call (a clock, a memory block) must not cost the delta.
  const instructions = leadingInstructions(items);
  const head =
    instructions > 0 &&
    instructions === leadingInstructions(baseItems) &&
    !items.slice(0, instructions).every((item, index) => sameItem(item, baseItems[index]))
      ? instructions
      : 0;
  let kept = head;
  while (kept < baseItems.length && kept < items.length && sameItem(baseItems[kept], items[kept])) kept += 1;
  if (kept === head) return null;
  const body: Body = {};
  const sameFields: string[] = [];
  for (const [key, value] of Object.entries(request)) {
    if (key === history) body[key] = items.slice(kept);
    else if (key in base && sameJson(base[key], value)) {
      sameFields.push(key);
      body[key] = null;
    } else body[key] = value;
  }
  return head > 0 ? { history, kept, head: items.slice(0, head), body, same: sameFields } : { history, kept, body, same: sameFields };
}

/**
 * D6.2 The last request of a chain: `first` stored whole, each delta made
 * against the request before it. The history is rebuilt in one array, so
 * reading call n costs what calls 1..n stored, never n whole histories.
 */
export function decodeChain(first: unknown, deltas: readonly RequestDelta[]): Body {
  if (!isBody(first)) throw new Error("a chain of request deltas starts with a request, a JSON object");
  let request = first;
  let history = historyField(first);
  const items = history === null ? [] : [...(first[history] as unknown[])];
  for (const delta of deltas) {
    if (history !== delta.history || items.length < delta.kept) throw new Error(`the base request holds fewer than ${delta.kept} ${delta.history} items`);
    const sameFields = new Set(delta.same);
    const next: Body = {};
    for (const [key, value] of Object.entries(delta.body)) {
      if (key === delta.history) {
        items.length = delta.kept;
        if (delta.head) items.splice(0, delta.head.length, ...delta.head);
        for (const item of value as unknown[]) items.push(item);
        next[key] = items;
      } else next[key] = sameFields.has(key) ? request[key] : value;
    }
    request = next;
    history = delta.history;
  }
  return history === null ? request : { ...request, [history]: [...items] };
}

/** D6.2 The request one delta was made from, given its base. */
export function decodeRequest(base: unknown, delta: RequestDelta): Body {
  return decodeChain(base, [delta]);
}
