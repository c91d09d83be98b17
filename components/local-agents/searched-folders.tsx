import { LOCAL_AGENT_LABELS, type AgentRoot } from "@/lib/local-agents/types";
import styles from "./local-agents.module.css";

function chosenBy(root: AgentRoot): string {
  return root.chosenBy === "HOME" ? "your home folder" : root.chosenBy;
}

/** Which folder each agent's sessions were looked for in, and what changes it. */
export function SearchedFolders({ roots }: { roots: readonly AgentRoot[] }) {
  return (
    <ul className={styles.folders} aria-label="Folders searched">
      {roots.map((root) => (
        <li key={root.agent}>
          {LOCAL_AGENT_LABELS[root.agent]}: <code>{root.dir}</code> ({root.pattern}), from {chosenBy(root)}. Set{" "}
          {root.overrides
            .filter((name) => name !== "HOME")
            .map((name, index) => (
              <span key={name}>
                {index > 0 ? " or " : null}
                <code>{name}</code>
              </span>
            ))}{" "}
          to look elsewhere.
        </li>
      ))}
    </ul>
  );
}
