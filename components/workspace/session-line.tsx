import type { SessionOverview, UsageTotals } from "@/lib/client/types";
import { promptTokensOfUsage } from "@/lib/context/light";
import { SafeText } from "@/components/ui/safe-text";
import styles from "./workspace.module.css";

const number = (value: number) => value.toLocaleString("en");

function usageSummary(usage: UsageTotals): string {
  const input = promptTokensOfUsage(usage);
  const cached = input === 0 ? 0 : Math.round((usage.cacheRead / input) * 100);
  return `${number(usage.calls)} call${usage.calls === 1 ? "" : "s"} reported ${number(input)} in (${cached}% from cache) · ${number(usage.output)} out`;
}

/** Where an imported or followed session came from, its parent when it is a subagent, and what its calls reported using. */
export function SessionLine({ overview }: { overview: SessionOverview }) {
  const { origin, parent, subagents, usage, sessionUsage } = overview;
  const agent = origin?.agent ? `${origin.agent}${origin.agentVersion ? ` ${origin.agentVersion}` : ""}` : null;
  if (agent === null && parent === null && usage.calls === 0) return null;
  return (
    <p className={styles.sessionLine} aria-label="Session">
      {agent ? <span>{agent}</span> : null}
      {origin?.cwd ? (
        <span title="Working directory">
          <SafeText text={origin.cwd} />
        </span>
      ) : null}
      {origin?.gitBranch ? (
        <span title="Git branch">
          ⎇ <SafeText text={origin.gitBranch} />
        </span>
      ) : null}
      {parent ? (
        <a href={`/c/${encodeURIComponent(parent.conversationId)}`}>
          subagent of <SafeText text={parent.title} />
        </a>
      ) : null}
      {usage.calls > 0 ? <span>{usageSummary(usage)}</span> : null}
      {subagents.length > 0 ? (
        <span title="This conversation's calls and its subagents' together">
          with {subagents.length} subagent{subagents.length === 1 ? "" : "s"}: {usageSummary(sessionUsage)}
        </span>
      ) : null}
    </p>
  );
}
