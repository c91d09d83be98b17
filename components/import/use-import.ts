"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, apiClient, type ImportConversationsResult } from "@/lib/client";
import { uploadFile, type UploadProgress } from "@/lib/client/upload";
import type { ImportFailure } from "./import-issues";
import type { ImportReportProps } from "./import-report";

export interface ImportAndOpen {
  busy: boolean;
  /** How far the file `importFile` sends is. */
  progress?: UploadProgress;
  failure?: ImportFailure;
  /** What the last import converted, repaired, dropped or approximated, when it did any of that or created several conversations. */
  report?: ImportReportProps;
  /**
   * Saves the text as conversations through the API. A clean import of one
   * conversation opens it; otherwise the report stays on the page, with links.
   * On an error keeps everything and reports where.
   */
  importText(text: string, filename?: string): Promise<void>;
  /** `importText` for a file too large to read into the page: the browser sends it from disk, with progress. */
  importFile(file: File): Promise<void>;
  /** Imports several files one after the other, a session's own files before its subagents' (so each links to its parent), and reports them together. */
  importFiles(files: readonly { text: string; filename: string }[]): Promise<void>;
  clear(): void;
}

/** Subagents' files (`agent-*.jsonl`) after the others: the parent is then stored when a subagent arrives. */
function parentsFirst<T extends { filename: string }>(files: readonly T[]): T[] {
  const isSubagent = (file: T) => /(^|[\\/])agent-[^\\/]*\.jsonl$/i.test(file.filename);
  return [...files.filter((file) => !isSubagent(file)), ...files.filter(isSubagent)];
}

export function useImportAndOpen(): ImportAndOpen {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ImportFailure>();
  const [report, setReport] = useState<ImportReportProps>();
  const [progress, setProgress] = useState<UploadProgress>();

  async function saveAndOpen(save: () => Promise<ImportConversationsResult>) {
    setBusy(true);
    setFailure(undefined);
    setReport(undefined);
    try {
      const { format, conversations } = await save();
      setProgress(undefined);
      const first = conversations[0];
      if (!first) throw new Error("the input held no conversation");
      const noted = conversations.some((conversation) => conversation.warnings.length > 0);
      if (conversations.length === 1 && !noted) {
        router.push(`/c/${encodeURIComponent(first.conversation.id)}`);
        router.refresh();
        return;
      }
      setBusy(false);
      setReport({
        format,
        conversations: conversations.map((created) => ({
          id: created.conversation.id,
          title: created.conversation.title,
          messageCount: created.messageCount,
          warnings: created.warnings,
        })),
      });
      router.refresh();
    } catch (error) {
      setBusy(false);
      setProgress(undefined);
      setFailure(failureOf(error));
    }
  }

  return {
    busy,
    progress,
    failure,
    report,
    clear: () => {
      setFailure(undefined);
      setReport(undefined);
    },
    importText: (text, filename) => saveAndOpen(() => apiClient.importConversations(text, filename ? { filename } : {})),
    importFile: (file) =>
      saveAndOpen(() =>
        uploadFile<ImportConversationsResult>({ path: "/api/conversations/import", query: { filename: file.name }, body: file, onProgress: setProgress }),
      ),
    async importFiles(files) {
      setBusy(true);
      setFailure(undefined);
      setReport(undefined);
      const created: NonNullable<ImportReportProps["conversations"]>[number][] = [];
      let format: ImportReportProps["format"] | undefined;
      try {
        for (const file of parentsFirst(files)) {
          const result = await apiClient.importConversations(file.text, { filename: file.filename });
          format ??= result.format;
          for (const conversation of result.conversations)
            created.push({
              id: conversation.conversation.id,
              title: conversation.conversation.title,
              messageCount: conversation.messageCount,
              warnings: conversation.warnings,
            });
        }
        if (format !== undefined) setReport({ format, conversations: created });
      } catch (error) {
        setFailure(failureOf(error));
      } finally {
        setBusy(false);
        router.refresh();
      }
    },
  };
}

function failureOf(error: unknown): ImportFailure {
  if (ApiError.isInstance(error)) return { message: error.message, issues: error.issues.map((issue) => ({ ...issue })) };
  return { message: error instanceof Error ? error.message : String(error), issues: [] };
}
