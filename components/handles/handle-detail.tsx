"use client";

import { useEffect, useRef, useState } from "react";
import { reloadExchange, SOURCE_LABELS, type HandleEntry } from "./handle-entries";
import { CopyButton, LongText } from "./long-text";
import styles from "./handles.module.css";

type Load = { state: "loading" } | { state: "loaded"; content: string } | { state: "error"; message: string };

export interface HandleDetailProps {
  entry: HandleEntry;
  /** Resolves with the original content behind a handle; rejects for an unknown one. */
  loadContent(handle: string): Promise<string>;
  copyText(text: string): Promise<void>;
  onShowOrigin?(messageIndex: number): void;
  /** The content came back: the viewer measures what the entry did not know (an imported marker's size). */
  onLoaded?(content: string): void;
  onClose(): void;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);
const number = (value: number) => value.toLocaleString("en");
const lines = (text: string) => {
  const count = text.split("\n").length;
  return `${number(count)} ${count === 1 ? "line" : "lines"}`;
};

/** One handle opened: its original content with size and origin, and the reload_offloaded exchange that returns it. */
export function HandleDetail({ entry, loadContent, copyText, onShowOrigin, onLoaded, onClose }: HandleDetailProps) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  // The latest loader without re-fetching whenever the parent re-renders with a new function.
  const loader = useRef(loadContent);
  const loaded = useRef(onLoaded);
  useEffect(() => {
    loader.current = loadContent;
    loaded.current = onLoaded;
  });

  useEffect(() => {
    let current = true;
    setLoad({ state: "loading" });
    loader.current(entry.handle).then(
      (content) => {
        if (!current) return;
        setLoad({ state: "loaded", content });
        loaded.current?.(content);
      },
      (error: unknown) => current && setLoad({ state: "error", message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [entry.handle, attempt]);

  // UI-G5: opened from its row, the detail comes into view there (the panel scrolls, not the page).
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    section.current?.scrollIntoView?.({ block: "nearest" });
  }, []);

  const exchange = load.state === "loaded" ? reloadExchange(entry.handle, load.content) : undefined;

  return (
    <section ref={section} className={styles.detail} aria-label={`Handle ${entry.handle}`} aria-busy={load.state === "loading"}>
      <header className={styles.detailHeader}>
        <h3 className={styles.detailTitle}>
          <code>{entry.handle}</code>
        </h3>
        <button type="button" className={styles.close} onClick={onClose} aria-label="Close handle">
          ×
        </button>
      </header>
      <dl className={styles.facts}>
        <dt>Source</dt>
        <dd>{SOURCE_LABELS[entry.source]}</dd>
        <dt>Origin</dt>
        <dd>
          {entry.origin >= 0 ? `message #${entry.origin}` : "unknown"}
          {entry.origin >= 0 && onShowOrigin ? (
            <button type="button" className={styles.linkButton} onClick={() => onShowOrigin(entry.origin)}>
              Show message #{entry.origin}
            </button>
          ) : null}
        </dd>
        <dt>Size</dt>
        <dd>
          {load.state === "loaded"
            ? `${number(load.content.length)} characters`
            : entry.characters !== undefined
              ? `${number(entry.characters)} characters`
              : "—"}
          {entry.tokens !== undefined ? ` · ${number(entry.tokens)} tokens` : ""}
          {load.state === "loaded" ? ` · ${lines(load.content)}` : ""}
        </dd>
        {entry.marker ? (
          <>
            <dt>Marker</dt>
            <dd>
              <code>{entry.marker}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {load.state === "loading" ? (
        <p className={styles.loading} role="status">
          Loading the original content…
        </p>
      ) : null}
      {load.state === "error" ? (
        <div className={styles.error} role="alert">
          <p>
            <strong>{/unknown|not found|no offloaded/i.test(load.message) ? `Unknown handle ${entry.handle}.` : `Could not load ${entry.handle}.`}</strong>{" "}
            {load.message}
          </p>
          <p>
            {entry.source === "run"
              ? "The run that offloaded it may have been replaced by a newer one; re-open it from the current list."
              : "This marker was written before the import: its content was not part of the pasted conversation, so reload_offloaded cannot return it here."}
          </p>
          <p>
            An agent calling <code>reload_offloaded</code> with this handle gets an error, not content.
          </p>
          <button type="button" onClick={() => setAttempt(attempt + 1)}>
            Try again
          </button>
        </div>
      ) : null}
      {load.state === "loaded" && exchange ? (
        <>
          <div className={styles.blockHeader}>
            <h4>Original content</h4>
            <CopyButton text={load.content} label="Copy content" copyText={copyText} />
          </div>
          <LongText text={load.content} label="Original content" />
          <div className={styles.blockHeader}>
            <h4>What reload_offloaded returns</h4>
            <CopyButton text={json([exchange.call, exchange.result])} label="Copy tool call and result" copyText={copyText} />
          </div>
          <p className={styles.caption}>The agent&apos;s tool call:</p>
          <pre className={styles.code} aria-label="Tool call">
            {json(exchange.call)}
          </pre>
          <p className={styles.caption}>The tool message it gets back (content exactly as offloaded):</p>
          <LongText text={json(exchange.result)} label="Tool message" />
        </>
      ) : null}
    </section>
  );
}
