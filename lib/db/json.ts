import "server-only";
import { InvalidArgumentError } from "./errors";

/** A value JSON can hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Serialises a payload for a text column; `argument` names it when it cannot be stored. */
export function toJsonText(value: unknown, argument: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new InvalidArgumentError(argument, `${argument} cannot be stored as JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw new InvalidArgumentError(argument, `${argument} cannot be stored as JSON (got ${typeof value})`);
  return text;
}

/** `toJsonText` for nullable columns: `null` and `undefined` store SQL NULL. */
export function toNullableJsonText(value: unknown, argument: string): string | null {
  return value === null || value === undefined ? null : toJsonText(value, argument);
}

/** Parses a JSON text column written by `toJsonText`. */
export function fromJsonText<T = JsonValue>(text: string): T {
  return JSON.parse(text) as T;
}

export function fromNullableJsonText<T = JsonValue>(text: string | null): T | null {
  return text === null ? null : fromJsonText<T>(text);
}

/** Requires a plain object (settings, checkpoint values); arrays and scalars are refused. */
export function toJsonObjectText(value: unknown, argument: string): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, `${argument} must be a JSON object`);
  }
  return toJsonText(value, argument);
}
