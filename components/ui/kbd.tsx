import type { ReactNode } from "react";
import styles from "./ui.module.css";

/** A key as printed on the keyboard. */
export function Kbd({ children }: { children: ReactNode }) {
  return <kbd className={styles.kbd}>{children}</kbd>;
}
