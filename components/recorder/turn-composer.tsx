"use client";

import { useState, type KeyboardEvent } from "react";
import ui from "@/components/ui/ui.module.css";
import styles from "./recorder.module.css";

export interface TurnComposerProps {
  busy: boolean;
  /** Why sending is not possible now (no upstream, tool results pending), else null. */
  blocked: string | null;
  /** Resolves true when the turn was taken (the box empties). */
  onSend(text: string): Promise<boolean>;
  onStop(): void;
}

/** The user turn: Enter sends, Shift+Enter starts a new line; Stop while the reply streams. */
export function TurnComposer({ busy, blocked, onSend, onStop }: TurnComposerProps) {
  const [text, setText] = useState("");
  const canSend = !busy && blocked === null && text.trim() !== "";
  const send = async () => {
    if (!canSend) return;
    const sent = text;
    setText("");
    if (!(await onSend(sent))) setText((current) => (current === "" ? sent : current));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };
  return (
    <div className={styles.composer}>
      <textarea
        aria-label="User turn"
        value={text}
        rows={2}
        placeholder={blocked ?? "Type the user's next turn — Enter sends, Shift+Enter for a new line"}
        disabled={blocked !== null && !busy}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {busy ? (
        <button type="button" className={ui.button} data-variant="danger" onClick={onStop} title="Stops the model; the turn stays recorded">
          Stop
        </button>
      ) : (
        <button type="button" className={ui.button} data-variant="primary" disabled={!canSend} onClick={() => void send()}>
          Send
        </button>
      )}
    </div>
  );
}
