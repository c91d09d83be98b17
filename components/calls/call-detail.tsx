"use client";

import type { ApiClient } from "@/lib/client";
import { useApi } from "@/lib/client/hooks";
import type { CallDetail as CallDetailData } from "@/lib/calls/types";
import { CopyButton, LongText } from "@/components/handles/long-text";
import { CallDiff } from "./call-diff";
import { protocolLabel } from "./call-format";
import styles from "./calls.module.css";

export interface CallDetailProps {
  callId: string;
  /** The call's number in the list, and its predecessor's number by id (for naming the diff). */
  number: number;
  numberOf(callId: string): number | null;
  client: ApiClient;
  copyText(text: string): Promise<void>;
}

function Body({ title, value, copyText, note }: { title: string; value: unknown; copyText(text: string): Promise<void>; note?: string }) {
  const text = JSON.stringify(value, null, 2) ?? "null";
  return (
    <details className={styles.body}>
      <summary>{title}</summary>
      {note ? <p className={styles.muted}>{note}</p> : null}
      <CopyButton text={text} label={`Copy ${title.toLowerCase()}`} copyText={copyText} />
      <LongText text={text} label={title} />
    </details>
  );
}

function Loaded({
  detail,
  number,
  numberOf,
  copyText,
}: {
  detail: CallDetailData;
  number: number;
  numberOf(callId: string): number | null;
  copyText(text: string): Promise<void>;
}) {
  const previousNumber = detail.previous ? numberOf(detail.previous.id) : null;
  const previousName = previousNumber === null ? "the call before" : `call ${previousNumber}`;
  return (
    <>
      <p className={styles.muted}>
        {protocolLabel(detail.call.protocol)} · {detail.call.streamed ? "streamed" : "whole"} · {detail.call.requestMessages ?? "?"} messages asked,{" "}
        {detail.call.sentMessages ?? "?"} forwarded
        {detail.call.tokens && !detail.call.tokens.exact ? ` · tokens approximated with ${detail.call.tokens.encoding}` : ""}
      </p>
      <h4 className={styles.detailHeading}>{detail.previous ? `What changed since ${previousName}` : "The first call: nothing to compare with"}</h4>
      {detail.previous ? <CallDiff before={detail.previous.messages} after={detail.messages} beforeName={previousName} afterName={`call ${number}`} /> : null}
      <Body title="Request as the agent sent it" value={detail.request} copyText={copyText} />
      <Body
        title="Request as forwarded"
        value={detail.sent ?? detail.request}
        copyText={copyText}
        note={detail.sent === null ? "Forwarded exactly as the agent sent it (the context pipeline was off)." : undefined}
      />
      <Body title="Response" value={detail.response} copyText={copyText} />
      {detail.error ? <Body title="Error" value={detail.error} copyText={copyText} /> : null}
    </>
  );
}

/** One call opened: the diff against the call before, the bodies as sent, forwarded and answered. */
export function CallDetail({ callId, number, numberOf, client, copyText }: CallDetailProps) {
  const { data, error, loading } = useApi((signal) => client.getCall(callId, { signal }), [client, callId]);
  return (
    <section className={styles.detail} aria-label={`Call ${number} details`}>
      {error ? (
        <p role="alert" className={styles.muted}>
          Could not load call {number}: {error.message}
        </p>
      ) : data ? (
        <Loaded detail={data} number={number} numberOf={numberOf} copyText={copyText} />
      ) : (
        <p className={styles.muted}>{loading ? "Loading the call…" : ""}</p>
      )}
    </section>
  );
}
