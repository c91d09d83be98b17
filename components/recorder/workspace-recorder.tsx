"use client";

import { useCallback, useMemo } from "react";
import type { MessageRecord } from "@/lib/db";
import { usePlaygroundStore, usePlaygroundStoreApi } from "@/lib/store/provider";
import { RecorderPanel } from "./recorder-panel";

/** The chat recorder wired to the workspace's store: its branch and messages, the model of its settings, and a refresh once a call wrote. */
export function WorkspaceRecorder() {
  const store = usePlaygroundStoreApi();
  const branchId = usePlaygroundStore((state) => state.branch?.id ?? null);
  const records = usePlaygroundStore((state) => state.records);
  const model = usePlaygroundStore((state) => state.settings.model);
  const messages = useMemo(() => records.map((record) => record.message), [records]);
  // The live event brings the same records; appending is idempotent, and this way the view follows even without it.
  const onRecorded = useCallback(
    (recorded: MessageRecord[]) => {
      const last = recorded.at(-1);
      if (branchId && last) void store.getState().appendRecords(branchId, last.position + 1, recorded);
    },
    [store, branchId],
  );
  const onSettled = useCallback(() => store.getState().bumpDataRevision(), [store]);
  if (!branchId) return null;
  return <RecorderPanel key={branchId} branchId={branchId} messages={messages} model={model} onRecorded={onRecorded} onSettled={onSettled} />;
}
