"use client";

import { useEffect, useState } from "react";
import { ApiError } from "@/lib/client";
import { localAgentsClient, type LocalAgentsClient } from "@/lib/local-agents/client";
import type { FollowStatus } from "@/lib/local-agents/types";
import ui from "@/components/ui/ui.module.css";
import styles from "./follow-indicator.module.css";

export interface FollowIndicatorProps {
  conversationId: string;
  client?: LocalAgentsClient;
  /** How often the follow is asked about: a follow started or stopped elsewhere shows up within this. */
  pollMs?: number;
}

function fileName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

/** "Following <file>" with a Stop button, while a local agent's session file feeds the open conversation. */
export function FollowIndicator({ conversationId, client = localAgentsClient, pollMs = 5_000 }: FollowIndicatorProps) {
  const [follow, setFollow] = useState<FollowStatus | null>(null);
  const [stopping, setStopping] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        setFollow((await client.followOf(conversationId, controller.signal)).follow);
      } catch (error) {
        // A server that does not offer local agents never follows anything: stop asking.
        if (ApiError.isInstance(error) && (error.status === 403 || error.status === 404 || error.code === "aborted")) return;
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void read(), pollMs);
    };
    void read();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [client, conversationId, pollMs]);

  if (!follow) return null;

  async function stop() {
    setStopping(true);
    try {
      await client.unfollow({ conversationId });
      setFollow(null);
    } finally {
      setStopping(false);
    }
  }

  return (
    <span className={styles.following} role="status" aria-label="Following a session file" title={follow.lastError ?? follow.path}>
      <span className={styles.file}>Following {fileName(follow.path)}</span>
      {follow.lastError ? <span className={styles.danger}>the last import failed</span> : null}
      <button type="button" className={ui.button} disabled={stopping} onClick={() => void stop()}>
        Stop
      </button>
    </span>
  );
}
