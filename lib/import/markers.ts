/**
 * Offload markers other engines leave in content: Exo / agent-core write
 * `[[OFFLOAD: handle=<id>]]`, also with `, type=<type>` and `, path=<path>`
 * (or `type` and `path` alone, when the path is the handle); we write
 * `[[OFFLOADED: handle=off_<12 hex>]]`.
 */
import type { Message } from "@/lib/context/messages";
import type { OffloadEngine, OffloadMarker } from "./types";

/** Exo / agent-core marker; group 1 is its `key=value` list. Not global: safe to `.test()`. */
export const EXO_OFFLOAD_MARKER = /\[\[OFFLOAD:\s*([^\]]*?)\]\]/;

/** Context Lab's own marker (`MessageOffloader`); group 1 is the handle. */
export const CONTEXT_LAB_OFFLOAD_MARKER = /\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]/;

/** A marker found in one string. */
export interface FoundOffloadMarker {
  handle: string;
  marker: string;
  engine: OffloadEngine;
  /** Offset of the marker in the content. */
  index: number;
  /** Exo's `type`, when given (`in_memory`, `filesystem`). */
  type?: string;
  /** Exo's `path`, when given. */
  path?: string;
}

const attribute = /(\w+)=([^,]*)/g;

function readAttributes(list: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of list.matchAll(attribute)) attributes[match[1]] = match[2].trim();
  return attributes;
}

/** Every offload marker in `content`, of either engine, in order of appearance. */
export function findOffloadMarkers(content: string | null | undefined): FoundOffloadMarker[] {
  if (!content?.includes("[[OFFLOAD")) return [];
  const found: FoundOffloadMarker[] = [];
  for (const match of content.matchAll(new RegExp(CONTEXT_LAB_OFFLOAD_MARKER.source, "g"))) {
    found.push({ handle: match[1], marker: match[0], engine: "context-lab", index: match.index });
  }
  for (const match of content.matchAll(new RegExp(EXO_OFFLOAD_MARKER.source, "g"))) {
    const attributes = readAttributes(match[1]);
    // Without a handle, agent-core's reload tool takes the path as the handle.
    const handle = attributes.handle || attributes.path;
    if (!handle) continue;
    const marker: FoundOffloadMarker = { handle, marker: match[0], engine: "exo", index: match.index };
    if (attributes.type) marker.type = attributes.type;
    if (attributes.path) marker.path = attributes.path;
    found.push(marker);
  }
  return found.sort((first, second) => first.index - second.index);
}

/** The markers of every message, with the index of the message holding each. */
export function collectOffloadMarkers(messages: readonly Message[]): OffloadMarker[] {
  return messages.flatMap((message, messageIndex) =>
    findOffloadMarkers(message.content).map(({ handle, marker, engine }) => ({ messageIndex, handle, marker, engine })),
  );
}
