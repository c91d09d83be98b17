"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, apiClient } from "@/lib/client";
import type { ImportFailure } from "./import-issues";

export interface ImportAndOpen {
  busy: boolean;
  failure?: ImportFailure;
  /** Saves the text as conversations through the API and opens the first one; on an error keeps everything and reports where. */
  importText(text: string, filename?: string): Promise<void>;
  clear(): void;
}

export function useImportAndOpen(): ImportAndOpen {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ImportFailure>();
  return {
    busy,
    failure,
    clear: () => setFailure(undefined),
    async importText(text, filename) {
      setBusy(true);
      setFailure(undefined);
      try {
        const { conversations } = await apiClient.importConversations(text, filename ? { filename } : {});
        const first = conversations[0];
        if (!first) throw new Error("the input held no conversation");
        router.push(`/c/${encodeURIComponent(first.conversation.id)}`);
        router.refresh();
      } catch (error) {
        setBusy(false);
        if (ApiError.isInstance(error)) setFailure({ message: error.message, issues: error.issues.map((issue) => ({ ...issue })) });
        else setFailure({ message: error instanceof Error ? error.message : String(error), issues: [] });
      }
    },
  };
}
