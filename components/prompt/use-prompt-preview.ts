"use client";

import { useMemo } from "react";
import type { ApiClient, AssembledPrompt, SettingsOverrides } from "@/lib/client";
import { useApi, useDebouncedValue, type ApiState } from "@/lib/client/hooks";

export interface PromptPreviewOptions {
  /** Unsaved settings to assemble with (the threshold panel's); saved ones are used without. */
  settings?: SettingsOverrides;
  /** Typing settles this long before a preview is asked for; default 300 ms. */
  delay?: number;
  /** Bump to assemble again with the same inputs (after a recorded turn, a compaction). */
  revision?: number;
}

/**
 * The assembled prompt for the next turn, re-asked (never writing) when the
 * typed turn or the settings settle; the previous preview stays until the
 * new one arrives, and a superseded request is aborted.
 */
export function usePromptPreview(client: ApiClient, branchId: string | null, userTurn: string, options: PromptPreviewOptions = {}): ApiState<AssembledPrompt> {
  const settingsKey = options.settings === undefined ? "" : JSON.stringify(options.settings);
  const settled = useDebouncedValue(`${settingsKey}\u0000${userTurn}`, options.delay ?? 300);
  const [settledSettings, settledTurn] = useMemo(() => {
    const split = settled.indexOf("\u0000");
    const key = settled.slice(0, split);
    return [key === "" ? undefined : (JSON.parse(key) as SettingsOverrides), settled.slice(split + 1)] as const;
  }, [settled]);
  return useApi(
    branchId === null ? null : (signal) => client.previewPrompt(branchId, { userTurn: settledTurn, settings: settledSettings }, { signal }),
    [client, branchId, settledTurn, settledSettings, options.revision ?? 0],
  );
}
