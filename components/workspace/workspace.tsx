"use client";

import { useEffect, useState } from "react";
import { apiClient } from "@/lib/client";
import type { BranchRecord, BranchTreeNode, ConversationRecord, MessageRecord } from "@/lib/db";
import { prestartPipeline } from "@/lib/playground/pipeline-client";
import { mergeCatalogue, type ModelEntry } from "@/lib/models";
import { fromPageResult, type PageResult } from "@/lib/playground/page-result";
import { resolveStoredSettings } from "@/lib/settings";
import { PANEL_TABS, type PanelTab } from "@/lib/store";
import { PlaygroundStoreProvider, usePlaygroundStore, usePlaygroundStoreApi } from "@/lib/store/provider";
import { Tabs, type TabItem } from "@/components/ui/tabs";
import { WorkspaceRecorder } from "@/components/recorder/workspace-recorder";
import { ConversationPanel } from "./conversation-panel";
import { PanelContent } from "./panel-content";
import { createPlaygroundServices } from "./services";
import { ShortcutsSheet } from "./shortcuts-sheet";
import { useLiveUpdates } from "./use-live-updates";
import { useShortcuts } from "./use-shortcuts";
import { useThemeSync, useUrlSync } from "./use-workspace-sync";
import type { WorkspaceLocation } from "./workspace-url";
import { WorkspaceHeader } from "./workspace-header";
import styles from "./workspace.module.css";

export interface WorkspaceProps {
  conversation: ConversationRecord;
  branch: BranchRecord;
  /** The branch's stored history, or with `partial` its first messages (the pipeline worker fetches the rest). */
  records: MessageRecord[];
  partial?: boolean;
  tree: BranchTreeNode[];
  location: WorkspaceLocation;
  /** The users' model entries (added or edited); the built-in catalogue is part of the page's code. */
  customModels: ModelEntry[];
  /** The branch's first pipeline result, built by the server so it paints before the worker is up; null: the worker builds it. */
  firstResult?: PageResult | null;
}

const TAB_LABELS: Record<PanelTab, string> = {
  pipeline: "Pipeline",
  handles: "Handles",
  state: "State",
  branches: "Branches",
  checkpoints: "Checkpoints",
  prompt: "Prompt",
  calls: "Calls",
  compare: "Compare",
};
const AVAILABLE: readonly PanelTab[] = PANEL_TABS;
const TABS: readonly TabItem<PanelTab>[] = PANEL_TABS.map((id, index) => ({ id, label: TAB_LABELS[id], shortcut: String(index + 1) })).filter((tab) =>
  AVAILABLE.includes(tab.id),
);

const services = createPlaygroundServices(apiClient);

// The pipeline worker starts as this script loads, not once the workspace has hydrated: its code downloads
// and evaluates meanwhile, and the provider takes it.
prestartPipeline();

// For bench/playground.ts: its own subscriber, so it changes in the same commit as the views that show a new run result (and re-renders nothing else).
function RenderedRevision() {
  const revision = usePlaygroundStore((state) => state.result?.revision);
  const origin = usePlaygroundStore((state) => (state.result ? (state.result.origin ?? "worker") : ""));
  return <span hidden data-rendered-revision={revision ?? ""} data-rendered-origin={origin} />;
}

function WorkspaceShell(props: WorkspaceProps) {
  const store = usePlaygroundStoreApi();
  const tab = usePlaygroundStore((state) => state.tab);
  const dialog = usePlaygroundStore((state) => state.dialog);
  const setTab = usePlaygroundStore((state) => state.setTab);
  const closeDialog = usePlaygroundStore((state) => state.closeDialog);
  useShortcuts(store, AVAILABLE);
  useUrlSync(store);
  useThemeSync(store);
  useLiveUpdates(store, props.conversation.id);

  // The page rendered again for another branch of this conversation: take it unless the store already shows it.
  const { conversation, branch, records, partial, tree } = props;
  useEffect(() => {
    const state = store.getState();
    if (state.conversation?.id === conversation.id && state.branch?.id === branch.id) return;
    void state.setConversation({ conversation, branch, records, partial, tree });
  }, [store, conversation, branch, records, partial, tree]);

  // An import report's link names a message: select it once, on opening.
  const linkedMessage = props.location.message;
  useEffect(() => {
    if (linkedMessage !== undefined) store.getState().selectMessage(linkedMessage);
  }, [store, linkedMessage]);

  const shownTab = AVAILABLE.includes(tab) ? tab : "pipeline";
  return (
    <div className={styles.workspace}>
      <WorkspaceHeader />
      <main className={styles.body}>
        <ConversationPanel footer={<WorkspaceRecorder />} callsClient={apiClient} />
        <aside className={styles.panel} aria-label="Inspector">
          <Tabs label="Inspector panels" tabs={TABS} selected={shownTab} onSelect={setTab} panelClassName={styles.panelBody}>
            <PanelContent tab={shownTab} />
          </Tabs>
        </aside>
      </main>
      <ShortcutsSheet open={dialog === "shortcuts"} onClose={closeDialog} />
      <RenderedRevision />
    </div>
  );
}

/** The workspace of one conversation on one branch: one store, the pipeline worker, the panels. */
export function Workspace(props: WorkspaceProps) {
  const { location, conversation, branch, records, partial, tree, customModels, firstResult } = props;
  const [catalogue] = useState(() => mergeCatalogue(customModels));
  const [result] = useState(() => (firstResult ? fromPageResult(firstResult) : undefined));
  // Not waiting for the store to attach the pipeline once hydrated: as soon as its worker is up, it asks for the
  // branch's history and loads the ranks it will count with (both downloads under way at once).
  useState(() => {
    const pipeline = prestartPipeline();
    if (partial) pipeline?.prefetchHistory(branch.id);
    pipeline?.prepare(resolveStoredSettings(conversation.settings, catalogue).policy.encoding);
  });
  return (
    <PlaygroundStoreProvider
      services={services}
      catalogue={catalogue}
      conversation={{ conversation, branch, records, partial, tree, result }}
      tab={location.tab}
      selectedStep={location.step}
      view={location.view}
    >
      <WorkspaceShell {...props} />
    </PlaygroundStoreProvider>
  );
}
