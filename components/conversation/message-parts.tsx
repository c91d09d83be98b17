import type { CacheControl, ContentPart, MediaRule, ReasoningPart } from "@/lib/context/light";
import { imageSize } from "@/lib/context/light";
import { SafeText } from "@/components/ui/safe-text";
import { imageUrl, partCostLabel, providerLabel, sourceLabel } from "./part-labels";
import styles from "./message-parts.module.css";

/** A prompt-cache breakpoint, shown where it is. */
export function CacheMark({ mark, where }: { mark: CacheControl; where: string }) {
  return (
    <span className={styles.cache} title={`Prompt-cache breakpoint after ${where}${mark.ttl ? `, kept ${mark.ttl}` : ""}`}>
      cache{mark.ttl ? ` ${mark.ttl}` : ""}
    </span>
  );
}

function reasoningTitle(part: ReasoningPart): string {
  if (part.redacted !== undefined) return "Redacted thinking";
  if (part.text === "" && part.summary === undefined) return part.encrypted !== undefined ? "Encrypted reasoning" : "Reasoning";
  return part.text === "" ? "Reasoning summary" : "Thinking";
}

/** Reasoning, collapsed: its kind, cost and opaque content named; the text when opened. */
export function ReasoningBlock({ part, rule }: { part: ReasoningPart; rule: MediaRule }) {
  const opaque = [
    part.signature !== undefined ? "signed" : "",
    part.encrypted !== undefined ? "encrypted content" : "",
    part.redacted !== undefined ? "redacted content" : "",
  ].filter(Boolean);
  const body = [part.text, ...(part.summary ?? [])].filter((text) => text !== "").join("\n\n");
  return (
    <details className={styles.reasoning} onClick={(event) => event.stopPropagation()}>
      <summary>
        {reasoningTitle(part)} · {partCostLabel(part, rule)}
        {opaque.length > 0 ? <span className={styles.opaque}> · {opaque.join(", ")} (sent back as is)</span> : null}
      </summary>
      {body !== "" ? (
        <pre className={styles.reasoningText}>
          <SafeText text={body} />
        </pre>
      ) : (
        <p className={styles.note}>No readable text: the provider keeps it opaque.</p>
      )}
    </details>
  );
}

function mediaTitle(part: ContentPart): string {
  if (part.type === "image") {
    const size = imageSize(part);
    return `image${size ? ` ${size.width}×${size.height}` : ""}${part.detail ? ` · ${part.detail} detail` : ""}`;
  }
  if (part.type === "audio") return `audio${part.format ? ` · ${part.format}` : ""}${part.seconds !== undefined ? ` · ${part.seconds} s` : ""}`;
  if (part.type === "document") return `document${part.title ? ` · ${part.title}` : ""}${part.pages !== undefined ? ` · ${part.pages} pages` : ""}`;
  return part.type;
}

/** One medium, a refusal or a provider block, as a compact item with its cost. */
export function PartItem({ part, rule }: { part: ContentPart; rule: MediaRule }) {
  if (part.type === "refusal")
    return (
      <div className={styles.refusal}>
        Refused: <SafeText text={part.text} />
      </div>
    );
  if (part.type === "provider") {
    return (
      <details className={styles.provider} onClick={(event) => event.stopPropagation()}>
        <summary>
          <SafeText text={providerLabel(part.data)} /> <span className={styles.muted}>({part.provider}, run by the provider)</span> ·{" "}
          {partCostLabel(part, rule)}
        </summary>
        <pre className={styles.reasoningText}>
          <SafeText text={JSON.stringify(part.data, null, 2)} />
        </pre>
      </details>
    );
  }
  if (part.type !== "image" && part.type !== "audio" && part.type !== "document") return null;
  // Base64 data whose header cannot be read would draw a broken image: its icon stands in.
  const readable = part.type === "image" && (part.source.type !== "base64" || imageSize(part) !== undefined);
  const url = part.type === "image" && readable ? imageUrl(part.source) : undefined;
  return (
    <figure className={styles.media} data-kind={part.type}>
      {url !== undefined ? (
        <img className={styles.thumbnail} src={url} alt={mediaTitle(part)} loading="lazy" referrerPolicy="no-referrer" />
      ) : (
        <span className={styles.icon} aria-hidden>
          {part.type === "audio" ? "♪" : part.type === "document" ? "▤" : "▧"}
        </span>
      )}
      <figcaption>
        <SafeText text={mediaTitle(part)} />
        <SafeText className={styles.muted} text={sourceLabel(part.source)} />
        <span className={styles.cost}>{partCostLabel(part, rule)}</span>
        {part.cacheControl ? <CacheMark mark={part.cacheControl} where={`this ${part.type}`} /> : null}
      </figcaption>
    </figure>
  );
}

/** The parts shown before a message's text: its reasoning. */
export function LeadingParts({ parts, rule }: { parts: readonly ContentPart[]; rule: MediaRule }) {
  const reasoning = parts.filter((part): part is ReasoningPart => part.type === "reasoning");
  if (reasoning.length === 0) return null;
  return (
    <div className={styles.parts}>
      {reasoning.map((part, index) => (
        <ReasoningBlock key={index} part={part} rule={rule} />
      ))}
    </div>
  );
}

/** The parts shown after a message's text: media, refusals, provider blocks, and cache marks on text parts. */
export function TrailingParts({ parts, rule }: { parts: readonly ContentPart[]; rule: MediaRule }) {
  const shown = parts.flatMap((part, index) => {
    if (part.type === "reasoning") return [];
    if (part.type === "text") return part.cacheControl ? [<CacheMark key={index} mark={part.cacheControl} where={`text part ${index + 1}`} />] : [];
    return [<PartItem key={index} part={part} rule={rule} />];
  });
  return shown.length > 0 ? <div className={styles.parts}>{shown}</div> : null;
}
