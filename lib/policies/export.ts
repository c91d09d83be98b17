import { policySnippet } from "@/lib/context/light";
import type { ModelEntry } from "@/lib/models";
import { DEFAULT_SETTINGS, resolveSettings, type Settings } from "@/lib/settings";
import { settingsWithPolicy } from "./policy";
import type { Policy } from "./schema";

/** The ways a policy can be taken home (PO-7). */
export const POLICY_EXPORT_FORMATS = ["json", "typescript"] as const;
export type PolicyExportFormat = (typeof POLICY_EXPORT_FORMATS)[number];

/** A title as a file name's stem: word characters, dots and dashes. */
export function fileStem(title: string, fallback: string): string {
  return title.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "") || fallback;
}

/**
 * A named policy as a file (PO-7): JSON holds the name and the policy as saved
 * (it can be saved again as it is); TypeScript is the engine's snippet of the
 * policy resolved against the catalogue (window, reserve and encoding made
 * concrete), over `base` for the recording fields.
 */
export function exportPolicy(
  name: string,
  policy: Policy,
  format: PolicyExportFormat,
  catalogue?: readonly ModelEntry[],
  base: Settings = DEFAULT_SETTINGS,
): { filename: string; text: string } {
  const stem = fileStem(name, "policy");
  if (format === "json") return { filename: `${stem}.policy.json`, text: JSON.stringify({ name, policy }, null, 2) };
  return { filename: `${stem}.policy.ts`, text: policySnippet(resolveSettings(settingsWithPolicy(base, policy), catalogue).policy) };
}
