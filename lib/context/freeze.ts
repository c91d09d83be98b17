/** Values `deepFreeze` has frozen together with everything inside them. */
const deeplyFrozen = new WeakSet<object>();

/**
 * Deep-freezes plain data in place and returns it. Subtrees it has already
 * walked are not walked again, so re-freezing a history that shares messages
 * is cheap. A value frozen only on the outside (`Object.freeze([message])`) is
 * still walked: its contents must not stay mutable (E-S2).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || deeplyFrozen.has(value)) return value;
  Object.freeze(value);
  // Marked before the walk, so cycles end here.
  deeplyFrozen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) deepFreeze(item);
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Whether `deepFreeze` has frozen this value and everything inside it. */
export function isDeeplyFrozen(value: object): boolean {
  return deeplyFrozen.has(value);
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
