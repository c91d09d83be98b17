"use client";

import { usePlaygroundStore } from "@/lib/store/provider";
import ui from "@/components/ui/ui.module.css";
import styles from "./policies.module.css";

/** Undo and redo of settings changes, and trying settings out without saving them. */
export function SettingsHistory() {
  const canUndo = usePlaygroundStore((state) => state.past.length > 0);
  const canRedo = usePlaygroundStore((state) => state.future.length > 0);
  const trying = usePlaygroundStore((state) => state.trying);
  const undo = usePlaygroundStore((state) => state.undo);
  const redo = usePlaygroundStore((state) => state.redo);
  const startTry = usePlaygroundStore((state) => state.startTry);
  const saveTry = usePlaygroundStore((state) => state.saveTry);
  const discardTry = usePlaygroundStore((state) => state.discardTry);
  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Settings history">
      <button
        type="button"
        className={ui.button}
        onClick={undo}
        disabled={!canUndo}
        aria-keyshortcuts="Control+Z Meta+Z"
        title="Undo the last settings change (Ctrl+Z)"
      >
        Undo
      </button>
      <button
        type="button"
        className={ui.button}
        onClick={redo}
        disabled={!canRedo}
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z"
        title="Redo (Ctrl+Shift+Z)"
      >
        Redo
      </button>
      {trying ? (
        <>
          <span className={styles.trying} role="status">
            Trying: changes are not saved
          </span>
          <button type="button" className={ui.button} data-variant="primary" onClick={saveTry}>
            Save these settings
          </button>
          <button type="button" className={ui.button} onClick={discardTry}>
            Discard
          </button>
        </>
      ) : (
        <button type="button" className={ui.button} onClick={startTry} title="Change settings and see the request without saving them">
          Try without saving
        </button>
      )}
    </div>
  );
}
