import { Fragment, useMemo } from "react";
import { revealInvisible } from "./reveal-invisible";
import styles from "./ui.module.css";

/**
 * Untrusted text (a title, a branch or tool name, message content) shown so
 * it cannot disguise itself: isolated from the text around it (`<bdi>`), and
 * each bidi control, zero-width or control character drawn as a marked
 * `U+XXXX` chip instead of taking effect.
 */
export function SafeText({ text, className }: { text: string; className?: string }) {
  const segments = useMemo(() => revealInvisible(text), [text]);
  return (
    <bdi className={className}>
      {segments.map((segment, index) =>
        segment.kind === "text" ? (
          <Fragment key={index}>{segment.text}</Fragment>
        ) : (
          <span key={index} className={styles.invisibleCharacter} title={segment.name} data-invisible={segment.code}>
            {segment.code}
          </span>
        ),
      )}
    </bdi>
  );
}
