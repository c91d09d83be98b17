import { PANEL_TABS, type HistoryView, type PanelTab } from "@/lib/store";

/** What a workspace URL carries besides the conversation: `?branch&tab&step&view&message`. */
export interface WorkspaceLocation {
  branch?: string;
  tab?: PanelTab;
  step?: number | null;
  view?: HistoryView;
  /** A message to select on opening (its stored position), as the import report links to it. */
  message?: number;
}

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Reads the search params of `/c/[conversationId]`; bad values are ignored. */
export function readWorkspaceLocation(params: SearchParams): WorkspaceLocation {
  const location: WorkspaceLocation = {};
  const branch = first(params.branch);
  if (branch) location.branch = branch;
  const tab = first(params.tab);
  if (tab && (PANEL_TABS as readonly string[]).includes(tab)) location.tab = tab as PanelTab;
  const step = Number(first(params.step));
  if (first(params.step) !== undefined && Number.isInteger(step) && step >= 0) location.step = step;
  if (first(params.view) === "after") location.view = "after";
  const message = Number(first(params.message));
  if (first(params.message) !== undefined && Number.isInteger(message) && message >= 0) location.message = message;
  return location;
}

/** The workspace URL for a conversation and location; defaults are left out so links stay short. */
export function workspaceHref(conversationId: string, location: WorkspaceLocation = {}): string {
  const search = new URLSearchParams();
  if (location.branch) search.set("branch", location.branch);
  if (location.tab && location.tab !== "pipeline") search.set("tab", location.tab);
  if (location.step !== undefined && location.step !== null) search.set("step", String(location.step));
  if (location.view === "after") search.set("view", "after");
  if (location.message !== undefined) search.set("message", String(location.message));
  const text = search.toString();
  return `/c/${encodeURIComponent(conversationId)}${text ? `?${text}` : ""}`;
}
