"use client";

import { useState, type FormEvent } from "react";
import ui from "@/components/ui/ui.module.css";
import type { ToolCall } from "@/lib/context/light";
import type { ChatToolResult } from "@/lib/chat/types";
import styles from "./recorder.module.css";
import { SafeText } from "@/components/ui/safe-text";

export interface ToolResultsFormProps {
  calls: ToolCall[];
  disabled: boolean;
  onSend(results: ChatToolResult[]): void;
}

function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Text that looks like JSON but does not parse: sent as text, but probably a paste gone wrong. */
function looksBroken(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return false;
  } catch {
    return true;
  }
}

/** The reply's pending tool calls, each with a box to paste what the tool returned; sent together. */
export function ToolResultsForm({ calls, disabled, onSend }: ToolResultsFormProps) {
  const [results, setResults] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSend(calls.map((call) => ({ tool_call_id: call.id, content: results[call.id] ?? "" })));
  };
  return (
    <form className={styles.toolResults} aria-label="Pending tool calls" onSubmit={submit}>
      <p className={styles.muted}>
        The model called {calls.length === 1 ? "a tool" : `${calls.length} tools`}: paste what {calls.length === 1 ? "it" : "each"} returned (JSON or text),
        then send.
      </p>
      {calls.map((call) => {
        const value = results[call.id] ?? "";
        const label = `Result of ${call.function.name} (${call.id})`;
        return (
          <fieldset key={call.id} className={styles.call}>
            <legend>
              <code>
                <SafeText text={call.function.name} />
              </code>{" "}
              <span className={styles.muted}>{call.id}</span>
            </legend>
            <pre className={styles.arguments} aria-label={`Arguments of ${call.function.name}`}>
              {prettyArguments(call.function.arguments)}
            </pre>
            <textarea
              aria-label={label}
              value={value}
              rows={3}
              placeholder='{"status": "ok"}'
              onChange={(event) => setResults((current) => ({ ...current, [call.id]: event.target.value }))}
            />
            {looksBroken(value) ? <span className={styles.warning}>Not valid JSON: it will be sent as text.</span> : null}
          </fieldset>
        );
      })}
      <div className={styles.actions}>
        <button type="submit" className={ui.button} data-variant="primary" disabled={disabled}>
          Send results
        </button>
      </div>
    </form>
  );
}
