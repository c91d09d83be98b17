import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./page-shell.module.css";

/** A page of its own beside the workspace (Models, Local agents): the brand linking home, the page's title, and its content; `lead` says what the page is for. */
export function PageShell({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Link href="/" className={styles.brand}>
          Context Lab
        </Link>
        <h1>{title}</h1>
      </header>
      <main className={styles.main}>
        {lead ? <p className={styles.lead}>{lead}</p> : null}
        {children}
      </main>
    </div>
  );
}
