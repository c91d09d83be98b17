import { memo } from "react";
import type { CompactionSummary, SubagentSummary } from "@/lib/client/types";
import { contentText, type MediaRule, type Message } from "@/lib/context/light";
import { MessageContent } from "./message-content";
import { CacheMark, LeadingParts, TrailingParts } from "./message-parts";
import { MARK_LABELS, type RowEffect } from "./row-marks";
import { gapText, NOTABLE_GAP_MS, usageText, type RowFacts } from "./row-facts";
import type { RowLayout } from "./row-layout";
import styles from "./conversation-view.module.css";
import { SafeText } from "@/components/ui/safe-text";

export interface MessageRowProps {
  index: number;
  message: Message;
  tokens?: number;
  /** The count was made with a tokenizer standing in for the model's. */
  approximate?: boolean;
  layout: RowLayout;
  /** Link keys of this message's tool calls, and of the call a tool result answers. */
  callKeys: readonly string[];
  resultKey?: string;
  /** Index of the other end of a link key (the result of a call, the call of a result), -1 when missing. */
  otherEnd: (key: string, from: number) => number;
  effect?: RowEffect;
  selected: boolean;
  hoveredCall: string | null;
  expanded: boolean;
  onToggleExpanded: (index: number) => void;
  onSelect: (index: number) => void;
  onHoverCall: (key: string | null) => void;
  onJump: (index: number) => void;
  onOpenHandle?: (handle: string) => void;
  /** Whose rule prices images, audio and documents (the model's provider); OpenAI's by default. */
  mediaRule?: MediaRule;
  /** Forks a branch right after this message; the button shows on hover and on the selected row. */
  onFork?: (index: number) => void;
  /** The message's time, the pause before it, the model and the usage its call reported. */
  facts?: RowFacts;
  /** The agent's compaction that ends right before this message. */
  compaction?: CompactionSummary;
  /** Subagents by the id of the tool call that started them. */
  subagents?: ReadonlyMap<string, SubagentSummary>;
}

const number = (value: number) => value.toLocaleString("en");

function timeOf(at: string): string {
  const date = new Date(at);
  return date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function SubagentLink({ subagent }: { subagent: SubagentSummary }) {
  return (
    <a className={styles.subagent} href={`/c/${encodeURIComponent(subagent.conversationId)}`} onClick={(event) => event.stopPropagation()}>
      subagent: {number(subagent.messages)} messages, {number(subagent.tokens)} tokens →
    </a>
  );
}

function CompactionNote({ compaction }: { compaction: CompactionSummary }) {
  const tokens =
    compaction.tokensBefore !== null && compaction.tokensAfter !== null
      ? ` · ${number(compaction.tokensBefore)} → ${number(compaction.tokensAfter)} tokens`
      : "";
  return (
    <div className={styles.compaction} role="note">
      Compacted by the agent{compaction.trigger ? ` (${compaction.trigger})` : ""}
      {tokens}: what came before was replaced for the model by its summary (checkpoint v{compaction.version})
    </div>
  );
}

function ToolCallLine({
  messageIndex,
  name,
  args,
  linkKey,
  hovered,
  target,
  subagent,
  onHoverCall,
  onJump,
}: {
  messageIndex: number;
  name: string;
  args: string;
  linkKey: string;
  hovered: boolean;
  target: number;
  subagent?: SubagentSummary;
  onHoverCall: (key: string | null) => void;
  onJump: (index: number) => void;
}) {
  const short = args.length > 240 ? `${args.slice(0, 239)}…` : args;
  return (
    <div className={styles.call} data-hovered={hovered || undefined} onMouseEnter={() => onHoverCall(linkKey)} onMouseLeave={() => onHoverCall(null)}>
      <code>
        <span className={styles.callName}>
          <SafeText text={name} />
        </span>
        (<SafeText text={short} />)
      </code>
      {target >= 0 ? (
        <button
          type="button"
          className={styles.link}
          aria-label={`Go to the result of ${name} in message ${target}`}
          onClick={(event) => {
            event.stopPropagation();
            onJump(target);
          }}
        >
          → #{target}
        </button>
      ) : (
        <span className={styles.missing} title={`message ${messageIndex}: no result follows this call`}>
          no result
        </span>
      )}
      {subagent ? <SubagentLink subagent={subagent} /> : null}
    </div>
  );
}

function sameEffect(first: RowEffect | undefined, second: RowEffect | undefined): boolean {
  if (first === second) return true;
  if (!first || !second || first.gone !== second.gone || first.origin !== second.origin || first.marks.length !== second.marks.length) return false;
  return first.marks.every(
    (mark, index) => mark.kind === second.marks[index].kind && mark.processor === second.marks[index].processor && mark.handle === second.marks[index].handle,
  );
}

/** A new run makes every row's effect anew: a row whose effect reads the same is not drawn again. */
function sameRowProps(previous: MessageRowProps, next: MessageRowProps): boolean {
  for (const key of Object.keys(next) as (keyof MessageRowProps)[]) {
    if (key === "effect" ? !sameEffect(previous.effect, next.effect) : !Object.is(previous[key], next[key])) return false;
  }
  return Object.keys(previous).length === Object.keys(next).length;
}

/** One message of the conversation view: round header, role, token count, pipeline marks, content and tool calls. */
export const MessageRow = memo(function MessageRow(props: MessageRowProps) {
  const { index, message, tokens, approximate, layout, callKeys, resultKey, otherEnd, effect, selected, hoveredCall, expanded, facts } = props;
  const usage = facts === undefined ? null : usageText(facts);
  const linked = hoveredCall !== null && (hoveredCall === resultKey || callKeys.includes(hoveredCall));
  const text = contentText(message);
  const callOf = resultKey === undefined ? -1 : otherEnd(resultKey, index);
  return (
    <div
      role="listitem"
      aria-label={`Message ${index}, ${message.role}`}
      aria-current={selected || undefined}
      className={styles.row}
      data-role={message.role}
      data-band={layout.round >= 0 ? layout.round % 2 : undefined}
      data-chain={layout.chain}
      data-linked={linked || undefined}
      data-gone={effect?.gone || undefined}
      onClick={() => props.onSelect(index)}
      onMouseEnter={resultKey ? () => props.onHoverCall(resultKey) : undefined}
      onMouseLeave={resultKey ? () => props.onHoverCall(null) : undefined}
    >
      {props.compaction ? <CompactionNote compaction={props.compaction} /> : null}
      {facts?.damaged ? (
        <p className={styles.failedCall} role="note" aria-label={`Message ${index} is damaged`}>
          <strong>Damaged row</strong>
          <span>
            <SafeText text={`stored data that could not be read is left out: ${facts.damaged.join("; ")}`} />
          </span>
        </p>
      ) : null}
      {facts?.gapMs !== undefined && facts.gapMs >= NOTABLE_GAP_MS ? <div className={styles.gap}>{gapText(facts.gapMs)}</div> : null}
      {layout.roundStart ? <div className={styles.roundHeader}>Round {layout.round + 1}</div> : null}
      {layout.chainStart ? (
        <div className={styles.chainHeader}>
          tool chain · {layout.chainCalls} call{layout.chainCalls === 1 ? "" : "s"}
        </div>
      ) : null}
      <header className={styles.header}>
        <span className={styles.index}>#{index}</span>
        <span className={styles.role}>{message.role}</span>
        {message.name ? (
          <span className={styles.name}>
            <SafeText text={message.name} />
          </span>
        ) : null}
        {facts?.at ? (
          <time className={styles.time} dateTime={facts.at} title={new Date(facts.at).toLocaleString("en-GB")}>
            {timeOf(facts.at)}
          </time>
        ) : null}
        {facts?.model && message.role === "assistant" ? (
          <span className={styles.model}>
            <SafeText text={facts.model} />
          </span>
        ) : null}
        {message.cache_control ? <CacheMark mark={message.cache_control} where="this message" /> : null}
        {resultKey !== undefined ? (
          <button
            type="button"
            className={styles.link}
            aria-label={`Go to the call answered by message ${index}`}
            onClick={(event) => {
              event.stopPropagation();
              props.onJump(callOf);
            }}
          >
            ↩ #{callOf} {message.tool_call_id}
          </button>
        ) : message.role === "tool" ? (
          <span className={styles.missing}>↩ {message.tool_call_id ?? "?"} (no call)</span>
        ) : null}
        <span className={styles.marks}>
          {effect?.marks.map((mark, position) => (
            <span key={position} className={styles.mark} data-kind={mark.kind} title={`${mark.processor}${mark.handle ? ` → ${mark.handle}` : ""}`}>
              {MARK_LABELS[mark.kind]}
              {mark.handle ? (
                <button
                  type="button"
                  className={styles.markHandle}
                  aria-label={`Open offloaded handle ${mark.handle}`}
                  onClick={(event) => {
                    event.stopPropagation();
                    props.onOpenHandle?.(mark.handle!);
                  }}
                >
                  {mark.handle}
                </button>
              ) : null}
            </span>
          ))}
          {effect?.gone && effect.marks.length === 0 ? (
            <span className={styles.mark} data-kind="dropped">
              not sent
            </span>
          ) : null}
          {effect?.origin !== undefined && effect.origin >= 0 && effect.origin !== index ? <span className={styles.origin}>was #{effect.origin}</span> : null}
        </span>
        {tokens !== undefined ? (
          <span className={styles.tokens}>
            {approximate ? "≈" : ""}
            {number(tokens)} tok
          </span>
        ) : null}
        {props.onFork ? (
          <button
            type="button"
            className={styles.fork}
            aria-label={`Fork a branch after #${index}`}
            title="Fork a branch that inherits this message and all before it (f)"
            onClick={(event) => {
              event.stopPropagation();
              props.onFork?.(index);
            }}
          >
            fork here
          </button>
        ) : null}
      </header>
      {message.parts ? <LeadingParts parts={message.parts} rule={props.mediaRule ?? "openai"} /> : null}
      {text !== "" ? <MessageContent text={text} expanded={expanded} onToggle={() => props.onToggleExpanded(index)} onOpenHandle={props.onOpenHandle} /> : null}
      {message.parts ? <TrailingParts parts={message.parts} rule={props.mediaRule ?? "openai"} /> : null}
      {message.tool_calls?.map((call, position) => (
        <ToolCallLine
          key={position}
          messageIndex={index}
          name={call.function.name}
          args={call.function.arguments}
          linkKey={callKeys[position]}
          hovered={hoveredCall === callKeys[position]}
          target={otherEnd(callKeys[position], index)}
          subagent={props.subagents?.get(call.id)}
          onHoverCall={props.onHoverCall}
          onJump={props.onJump}
        />
      ))}
      {usage ? (
        <p className={styles.usage} title="What the provider reported this call used">
          {usage}
          {facts?.latencyMs !== undefined ? ` · ${number(facts.latencyMs)} ms` : ""}
        </p>
      ) : null}
    </div>
  );
}, sameRowProps);
