import Link from "next/link";
import styles from "@/components/workspace/workspace-states.module.css";

/** A conversation id that is not (or no longer) stored. */
export default function ConversationNotFound() {
  return (
    <main className={styles.state}>
      <h1>Conversation not found</h1>
      <p>It may have been deleted, or the link belongs to another database.</p>
      <Link href="/">Back to the conversations</Link>
    </main>
  );
}
