"use client";

import { useCallback, useMemo } from "react";
import { apiClient } from "@/lib/client";
import type { PanelTab } from "@/lib/store";
import { forkPositionOfSelection } from "@/lib/store";
import { usePlaygroundStore } from "@/lib/store/provider";
import { CallsPanel } from "@/components/calls/calls-panel";
import { BranchesPanel } from "@/components/branches/branches-panel";
import { ComparePanel } from "@/components/compare/compare-panel";
import { CheckpointsPanel } from "@/components/checkpoints/checkpoints-panel";
import { HandleViewer } from "@/components/handles";
import { PromptPanel } from "@/components/prompt/prompt-panel";
import { StatePanel } from "@/components/state/state-panel";
import { PipelineTab } from "./pipeline-tab";

function HandlesTab() {
  const offloaded = usePlaygroundStore((state) => state.result?.offloaded);
  const markers = usePlaygroundStore((state) => state.offloadMarkers);
  const branchId = usePlaygroundStore((state) => state.branch?.id ?? null);
  const selectedHandle = usePlaygroundStore((state) => state.selectedHandle);
  const reloadHandle = usePlaygroundStore((state) => state.reloadHandle);
  const openHandle = usePlaygroundStore((state) => state.openHandle);
  const setView = usePlaygroundStore((state) => state.setView);
  const selectMessage = usePlaygroundStore((state) => state.selectMessage);
  const countTexts = usePlaygroundStore((state) => state.countTexts);
  const countTokens = useCallback(async (text: string) => (await countTexts([text]))[0], [countTexts]);
  // The run's own handles come back from the worker; handles stored with the branch (a recorded agent's) from the API.
  const loadContent = useCallback(
    async (handle: string) => {
      try {
        return await reloadHandle(handle);
      } catch (workerError) {
        if (!branchId) throw workerError;
        return (await apiClient.getOffloadedContent(branchId, handle)).content;
      }
    },
    [reloadHandle, branchId],
  );
  return (
    <HandleViewer
      offloaded={offloaded ?? []}
      markers={markers}
      loadContent={loadContent}
      selectedHandle={selectedHandle}
      countTokens={countTokens}
      onSelectHandle={(handle) => (handle === null ? openHandle(null) : openHandle(handle))}
      onShowOrigin={(index) => {
        setView("before");
        selectMessage(index);
      }}
    />
  );
}

function BranchesTab() {
  const tree = usePlaygroundStore((state) => state.tree);
  const branchId = usePlaygroundStore((state) => state.branch?.id ?? null);
  const forkPosition = usePlaygroundStore(forkPositionOfSelection);
  const forking = usePlaygroundStore((state) => state.forking);
  const forkError = usePlaygroundStore((state) => state.forkError);
  const switchBranch = usePlaygroundStore((state) => state.switchBranch);
  const forkAt = usePlaygroundStore((state) => state.forkAt);
  return (
    <BranchesPanel
      tree={tree}
      currentBranchId={branchId}
      forkPosition={forkPosition}
      onSwitch={(id) => void switchBranch(id)}
      onFork={forkAt}
      forking={forking}
      forkError={forkError}
    />
  );
}

function CheckpointsTab() {
  const tree = usePlaygroundStore((state) => state.tree);
  const branchId = usePlaygroundStore((state) => state.branch?.id ?? null);
  const revision = usePlaygroundStore((state) => state.dataRevision);
  const bump = usePlaygroundStore((state) => state.bumpDataRevision);
  // A new revision remounts the browser so it loads again after a fork or a compaction elsewhere.
  return <CheckpointsPanel key={`${branchId}-${revision}`} branchId={branchId} tree={tree} onCheckpointed={bump} />;
}

function StateTab() {
  const branchId = usePlaygroundStore((state) => state.branch?.id ?? null);
  const contexts = usePlaygroundStore((state) => state.result?.contexts);
  const revision = usePlaygroundStore((state) => state.dataRevision);
  return <StatePanel branchId={branchId} contexts={contexts ?? []} revision={revision} />;
}

function PromptTab() {
  const branchId = usePlaygroundStore((state) => state.branch?.id ?? null);
  const result = usePlaygroundStore((state) => state.result);
  const running = usePlaygroundStore((state) => state.running);
  const nextTurn = usePlaygroundStore((state) => state.nextTurn);
  const setNextTurn = usePlaygroundStore((state) => state.setNextTurn);
  const reloadBranch = usePlaygroundStore((state) => state.reloadBranch);
  const view = useMemo(() => (result ? { ...result.request, messages: result.history } : null), [result]);
  return (
    <PromptPanel branchId={branchId} view={view} running={running} nextTurn={nextTurn} onNextTurnChange={setNextTurn} onCompacted={() => void reloadBranch()} />
  );
}

function CallsTab() {
  const conversationId = usePlaygroundStore((state) => state.conversation?.id ?? null);
  const revision = usePlaygroundStore((state) => state.callsRevision);
  const positions = usePlaygroundStore((state) => state.positions);
  const selectMessage = usePlaygroundStore((state) => state.selectMessage);
  const setView = usePlaygroundStore((state) => state.setView);
  // A stored position as the conversation view's row: the view shows the branch's messages, repaired pairs left out.
  const showMessage = useCallback(
    (position: number) => {
      const index = positions.indexOf(position);
      if (index < 0) return;
      setView("before");
      selectMessage(index);
    },
    [positions, selectMessage, setView],
  );
  return <CallsPanel conversationId={conversationId} revision={revision} onShowMessage={showMessage} />;
}

/** The open inspector panel, wired to the store. */
export function PanelContent({ tab }: { tab: PanelTab }) {
  switch (tab) {
    case "handles":
      return <HandlesTab />;
    case "state":
      return <StateTab />;
    case "branches":
      return <BranchesTab />;
    case "checkpoints":
      return <CheckpointsTab />;
    case "prompt":
      return <PromptTab />;
    case "calls":
      return <CallsTab />;
    case "compare":
      return <ComparePanel />;
    default:
      return <PipelineTab />;
  }
}
