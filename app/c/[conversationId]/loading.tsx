import styles from "@/components/workspace/workspace-states.module.css";

/** Shown while the server reads the conversation. */
export default function WorkspaceLoading() {
  return (
    <main className={styles.state} aria-busy="true">
      <p className={styles.loading}>Loading the conversation…</p>
    </main>
  );
}
