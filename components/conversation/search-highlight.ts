"use client";

import { useEffect, type RefObject } from "react";

/** The name the page's style sheet gives the matches' look (`::highlight(conversation-search)` in app/globals.css). */
export const SEARCH_HIGHLIGHT = "conversation-search";

/** Every occurrence of `query` (case-insensitive) in the text under `root`, one range each; an occurrence split across elements is not one. */
export function matchRanges(root: Node, query: string): Range[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return [];
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.nodeValue ?? "").toLowerCase();
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
    }
  }
  return ranges;
}

/**
 * Marks the search's matches in the rows shown under `container` (UI-S1), with the CSS Custom Highlight API: no
 * element is added to the messages, and rows the list virtualises in later are marked as they appear. Browsers
 * without the API show the selection moving from match to match, as before.
 */
export function useSearchHighlight(container: RefObject<HTMLElement | null>, query: string): void {
  useEffect(() => {
    const root = container.current;
    if (!root || query.trim() === "" || typeof CSS === "undefined" || !("highlights" in CSS) || typeof Highlight === "undefined") return;
    let frame = 0;
    const mark = () => {
      frame = 0;
      CSS.highlights.set(SEARCH_HIGHLIGHT, new Highlight(...matchRanges(root, query)));
    };
    mark();
    const observer = new MutationObserver(() => {
      if (frame === 0) frame = requestAnimationFrame(mark);
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
      CSS.highlights.delete(SEARCH_HIGHLIGHT);
    };
  }, [container, query]);
}
