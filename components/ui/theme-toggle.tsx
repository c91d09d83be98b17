"use client";

import type { Theme } from "./theme";
import styles from "./ui.module.css";

/** Switches light and dark; the label says what a press does. */
export function ThemeToggle({ theme, onToggle }: { theme: Theme; onToggle: () => void }) {
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button type="button" className={styles.iconButton} onClick={onToggle} aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme (t)`}>
      <span aria-hidden>{theme === "dark" ? "☀" : "☾"}</span>
    </button>
  );
}
