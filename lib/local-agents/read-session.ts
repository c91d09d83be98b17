import "server-only";
import { promises as fs } from "node:fs";
import { HttpError } from "@/lib/api/errors";
import { MAX_IMPORT_BODY_BYTES } from "@/lib/api/http";

/** A session file's text as far as it is written: whole lines only (LA5). */
export interface CompleteText {
  text: string;
  /** Bytes of the file the text covers; the rest is a line still being written. */
  bytes: number;
  /** The file's size when it was read. */
  size: number;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The part of a session's text an import can read. A JSONL file ends where its
 * last newline is: a last line without one is being written, unless it is
 * already whole JSON. A JSON document that does not parse yet is being
 * rewritten: null, try again when it changes.
 */
export function completePartOf(text: string, jsonLines: boolean): string | null {
  if (!jsonLines) return parses(text) ? text : null;
  const end = text.lastIndexOf("\n") + 1;
  const rest = text.slice(end);
  return rest.trim() === "" || parses(rest) ? text : text.slice(0, end);
}

/** Reads a session file for an import, refused with 413 past the import's size limit before it is read. */
export async function readCompleteText(filePath: string): Promise<CompleteText | null> {
  const { size } = await fs.stat(filePath);
  if (size > MAX_IMPORT_BODY_BYTES) {
    throw new HttpError(413, "payload_too_large", `the session file is ${size} bytes, over the import's ${MAX_IMPORT_BODY_BYTES}-byte limit`, {
      details: { bytes: size, limit: MAX_IMPORT_BODY_BYTES },
    });
  }
  const whole = await fs.readFile(filePath, "utf8");
  const text = completePartOf(whole, filePath.endsWith(".jsonl"));
  if (text === null) return null;
  return { text, bytes: Buffer.byteLength(text, "utf8"), size: Buffer.byteLength(whole, "utf8") };
}
