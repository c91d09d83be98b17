"use client";

import { useMemo, useState } from "react";
import { ENGINE_PACKAGE_NAME } from "@/lib/context/light";
import type { ModelEntry } from "@/lib/models";
import { CODE_TARGET_INFO, CODE_TARGETS, exportPolicyCode, type CodeTarget, type Policy } from "@/lib/policies";
import type { Settings } from "@/lib/settings";
import { downloadText } from "@/components/ui/download";
import ui from "@/components/ui/ui.module.css";
import styles from "./policies.module.css";

export interface PolicyCodeProps {
  name: string;
  policy: Policy;
  catalogue?: readonly ModelEntry[];
  /** The settings the policy is resolved over (the model's window, reserve and encoding). */
  base: Settings;
  onClose: () => void;
}

/** A policy as code for an agent framework: the install command and a module that runs as it is. */
export function PolicyCode({ name, policy, catalogue, base, onClose }: PolicyCodeProps) {
  const [target, setTarget] = useState<CodeTarget>("ai-sdk-middleware");
  const [copied, setCopied] = useState(false);
  const code = useMemo(() => exportPolicyCode(name, policy, target, catalogue, base), [name, policy, target, catalogue, base]);

  async function copy() {
    await navigator.clipboard.writeText(code.code);
    setCopied(true);
  }

  return (
    <section className={styles.code} aria-label={`${name} as code`}>
      <div className={styles.row}>
        <label>
          As code for{" "}
          <select
            aria-label="Framework"
            value={target}
            onChange={(event) => {
              setTarget(event.target.value as CodeTarget);
              setCopied(false);
            }}
          >
            {CODE_TARGETS.map((id) => (
              <option key={id} value={id}>
                {CODE_TARGET_INFO[id].label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={ui.button} onClick={() => void copy()}>
          {copied ? "Copied" : "Copy code"}
        </button>
        <button type="button" className={ui.button} onClick={() => downloadText(code.code, code.filename, "text/typescript")}>
          Download {code.filename}
        </button>
        <button type="button" className={ui.button} onClick={onClose}>
          Close
        </button>
      </div>
      <pre className={styles.snippet} aria-label="Install command">
        <code>{code.install}</code>
      </pre>
      <p className={styles.muted}>
        Until {ENGINE_PACKAGE_NAME} is published, <code>npm run pack:engine</code> in Context Lab builds it as a tarball in <code>dist/</code>: install that
        file in its place.
      </p>
      <pre className={styles.snippet} aria-label="Code">
        <code>{code.code}</code>
      </pre>
    </section>
  );
}
