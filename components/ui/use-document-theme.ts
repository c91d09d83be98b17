"use client";

import { useSyncExternalStore } from "react";
import { readDocumentTheme, type Theme } from "./theme";

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

/** The theme on `<html>`, following every change (the server renders light; the boot script already painted the right one). */
export function useDocumentTheme(): Theme {
  return useSyncExternalStore(subscribe, readDocumentTheme, () => "light");
}
