"use client";

import Link from "next/link";
import styles from "@/components/workspace/workspace-states.module.css";

/** The workspace could not be loaded: the database is down, say. Offers a retry. */
export default function WorkspaceError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className={styles.state}>
      <h1>The workspace could not be loaded</h1>
      <p role="alert">{error.message || "The server could not read this conversation."}</p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{" "}
        or <Link href="/">go back to the conversations</Link>.
      </p>
    </main>
  );
}
