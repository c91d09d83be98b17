import type { UploadProgress } from "@/lib/client/upload";
import styles from "./import.module.css";

/** "4.1 MB", "900 KB". */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** An upload's progress bar, then, once every byte is sent, that the server is saving it. */
export function UploadStatus({ progress }: { progress: UploadProgress }) {
  const done = progress.sent >= progress.total;
  return (
    <div role="status" className={styles.upload}>
      <progress aria-label="Upload progress" max={Math.max(1, progress.total)} value={progress.sent} />
      <span>{done ? "Sent; saving…" : `Sending ${formatSize(progress.sent)} of ${formatSize(progress.total)}`}</span>
    </div>
  );
}
