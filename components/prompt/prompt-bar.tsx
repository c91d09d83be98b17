import type { SectionView } from "@/lib/request";
import { formatShare, sectionShares } from "./prompt-format";
import styles from "./prompt-preview.module.css";

export interface PromptBarProps {
  sections: readonly SectionView[];
  /** The reply priming: part of the total the shares are of. */
  priming?: number;
}

/** The request's sections as one stacked bar, each segment its share of the total tokens. */
export function PromptBar({ sections, priming = 0 }: PromptBarProps) {
  const shares = sectionShares(sections, priming);
  const description = sections.map((section, index) => `${section.label} ${formatShare(shares[index])}`).join(", ");
  return (
    <div className={styles.bar} role="img" aria-label={`Token share by section: ${description}`}>
      {sections.map((section, index) =>
        shares[index] > 0 ? (
          <span
            key={index}
            className={styles.segment}
            data-kind={section.kind}
            style={{ flexGrow: shares[index] }}
            title={`${section.label}: ${formatShare(shares[index])}`}
          />
        ) : null,
      )}
    </div>
  );
}
