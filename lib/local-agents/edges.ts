import "server-only";
import { promises as fs } from "node:fs";

/** Bytes read from each end of a file to describe it: a listing never reads a whole big file (LA1). */
export const EDGE_BYTES = 32 * 1024;

/** The complete lines at the start and at the end of a file, and the raw text of both ends. */
export interface FileEdges {
  /** Whole lines from the start (a line cut by the edge is left out). */
  head: string[];
  /** Whole lines from the end, in file order; empty when the head already covers the whole file. */
  tail: string[];
  headText: string;
  tailText: string;
  whole: boolean;
}

async function readRange(handle: fs.FileHandle, start: number, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, start);
  return buffer.subarray(0, bytesRead).toString("utf8");
}

/** Reads at most EDGE_BYTES from each end of a file of `size` bytes. */
export async function readEdges(filePath: string, size: number, edgeBytes = EDGE_BYTES): Promise<FileEdges> {
  const handle = await fs.open(filePath, "r");
  try {
    const whole = size <= edgeBytes * 2;
    const headText = await readRange(handle, 0, whole ? size : edgeBytes);
    const tailText = whole ? "" : await readRange(handle, size - edgeBytes, edgeBytes);
    const headLines = headText.split("\n");
    // The last piece of the head is cut by the edge unless the whole file was read.
    const head = (whole ? headLines : headLines.slice(0, -1)).filter((line) => line.trim() !== "");
    const tail = whole
      ? []
      : tailText
          .split("\n")
          .slice(1)
          .filter((line) => line.trim() !== "");
    return { head, tail, headText, tailText, whole };
  } finally {
    await handle.close();
  }
}

/** Each line that parses as a JSON object, in order; others (a line being written) are skipped. */
export function jsonObjectsOf(lines: readonly string[]): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (const line of lines) {
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) objects.push(value as Record<string, unknown>);
    } catch {
      // Not a whole JSON line: skipped, the listing is a description, not an import.
    }
  }
  return objects;
}
