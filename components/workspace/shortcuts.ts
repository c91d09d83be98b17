/** The workspace's keyboard shortcuts, as the sheet lists them and the handler reads them. */
export interface Shortcut {
  keys: readonly string[];
  description: string;
  group: "Conversation" | "Pipeline" | "Panels" | "General";
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ["j", "↓"], description: "Select the next message", group: "Conversation" },
  { keys: ["k", "↑"], description: "Select the previous message", group: "Conversation" },
  { keys: ["g", "G"], description: "Select the first / last message", group: "Conversation" },
  { keys: ["b"], description: "Toggle before / after the pipeline", group: "Conversation" },
  { keys: ["f"], description: "Fork a branch after the selected message", group: "Conversation" },
  { keys: ["/"], description: "Find in the conversation (Enter: next match, Shift+Enter: previous)", group: "Conversation" },
  { keys: ["Esc"], description: "Clear the selection, close a dialog", group: "Conversation" },
  { keys: ["["], description: "Previous trace step (its diff)", group: "Pipeline" },
  { keys: ["]"], description: "Next trace step (its diff)", group: "Pipeline" },
  { keys: ["p"], description: "Cycle mode presets: pilot → copilot → navigator", group: "Pipeline" },
  { keys: ["Ctrl", "Z"], description: "Undo the last settings change (⌘Z on a Mac)", group: "Pipeline" },
  { keys: ["Ctrl", "Shift", "Z"], description: "Redo a settings change (also Ctrl+Y)", group: "Pipeline" },
  { keys: ["1", "…", "8"], description: "Open a panel: Pipeline, Handles, State, Branches, Checkpoints, Prompt, Calls, Compare", group: "Panels" },
  { keys: ["t"], description: "Toggle light / dark theme", group: "General" },
  { keys: ["?"], description: "Show this sheet", group: "General" },
];

/** True when a key press belongs to a text field or a control that reads keys itself. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  // Sliders and checkboxes take arrows and space only; letters still reach the shortcuts.
  return !["range", "checkbox", "radio", "button", "submit"].includes(type);
}
