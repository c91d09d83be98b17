"use client";

import { Fragment } from "react";
import { Dialog } from "@/components/ui/dialog";
import { Kbd } from "@/components/ui/kbd";
import { SHORTCUTS } from "./shortcuts";
import styles from "./workspace.module.css";

const GROUPS = ["Conversation", "Pipeline", "Panels", "General"] as const;

/** The `?` sheet: every shortcut of the workspace, grouped. */
export function ShortcutsSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" open={open} onClose={onClose}>
      {GROUPS.map((group) => (
        <section key={group} className={styles.shortcutGroup} aria-label={group}>
          <h3>{group}</h3>
          <dl>
            {SHORTCUTS.filter((shortcut) => shortcut.group === group).map((shortcut) => (
              <Fragment key={shortcut.description}>
                <dt>
                  {shortcut.keys.map((key, index) => (
                    <Fragment key={index}>
                      {key === "…" ? " … " : <Kbd>{key}</Kbd>}
                      {index < shortcut.keys.length - 1 && key !== "…" && shortcut.keys[index + 1] !== "…" ? " " : null}
                    </Fragment>
                  ))}
                </dt>
                <dd>{shortcut.description}</dd>
              </Fragment>
            ))}
          </dl>
        </section>
      ))}
      <p className={styles.muted}>Shortcuts are off while typing in a field. Hover a tool call to light up its result; click a row to select it.</p>
    </Dialog>
  );
}
