"use client";

import { useState, type FormEvent } from "react";
import { Dialog } from "@/components/ui/dialog";
import ui from "@/components/ui/ui.module.css";
import styles from "./fork-controls.module.css";

/** Creates the branch: `position` messages are inherited. Resolve to null (or false) when it failed, so a dialog stays open. */
export type ForkHandler = (position: number, name?: string) => unknown;

export interface ForkButtonProps {
  /** Messages the new branch inherits (the selected message's position + 1); null when no message is selected. */
  position: number | null;
  onFork: ForkHandler;
  pending?: boolean;
}

/** "Fork after message 16": '#0–#16 inherited' as a label. */
export function forkButtonLabel(position: number): string {
  return position === 0 ? "Fork before the first message" : `Fork after message ${position - 1}`;
}

/** One click forks the current branch right after the selected message. */
export function ForkButton({ position, onFork, pending = false }: ForkButtonProps) {
  return (
    <button
      type="button"
      className={ui.button}
      data-variant="primary"
      disabled={position === null || pending}
      title={position === null ? "Select a message to fork after" : `The new branch inherits messages #0–#${position - 1}; this branch is unchanged`}
      onClick={() => position !== null && onFork(position)}
    >
      {pending ? "Forking…" : position === null ? "Fork (select a message)" : forkButtonLabel(position)}
    </button>
  );
}

export interface ForkDialogProps {
  /** Prefilled from the selection; the user may change it. */
  position: number | null;
  /** The current branch's history length: the largest position allowed. */
  length: number;
  branchName: string;
  onFork: ForkHandler;
  pending?: boolean;
  error?: string | null;
}

/** "Fork…": pick the fork point and name the branch before creating it. */
export function ForkDialog({ position, length, branchName, onFork, pending = false, error }: ForkDialogProps) {
  const [open, setOpen] = useState(false);
  const [at, setAt] = useState("");
  const [name, setName] = useState("");
  const parsed = Number(at);
  const valid = at.trim() !== "" && Number.isInteger(parsed) && parsed >= 0 && parsed <= length;

  const show = () => {
    setAt(String(position ?? length));
    setName("");
    setOpen(true);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const result = await onFork(parsed, name.trim() === "" ? undefined : name.trim());
    if (result !== null && result !== false) setOpen(false);
  };

  return (
    <>
      <button type="button" className={ui.button} onClick={show}>
        Fork…
      </button>
      <Dialog title={`Fork ${branchName}`} open={open} onClose={() => setOpen(false)}>
        <form className={styles.form} onSubmit={submit} aria-label="Fork branch">
          <label className={styles.field}>
            Messages to inherit (0–{length})
            <input type="number" min={0} max={length} step={1} value={at} onChange={(event) => setAt(event.target.value)} aria-invalid={!valid} />
          </label>
          <label className={styles.field}>
            Branch name
            <input
              type="text"
              value={name}
              placeholder={`${branchName}@${valid ? parsed : "…"}`}
              onChange={(event) => setName(event.target.value)}
              maxLength={200}
            />
          </label>
          <p className={styles.hint}>
            {valid
              ? parsed === 0
                ? "The new branch starts empty."
                : `The new branch inherits messages #0–#${parsed - 1}; ${branchName} is unchanged.`
              : `Enter a whole number from 0 to ${length}.`}
          </p>
          {error ? (
            <p className={styles.error} role="alert">
              {error}
            </p>
          ) : null}
          <div className={styles.actions}>
            <button type="button" className={ui.button} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className={ui.button} data-variant="primary" disabled={!valid || pending}>
              {pending ? "Creating…" : "Create branch"}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
