/** `1.2 MB`, `340 KB`, `812 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** A time as people read it here: `12 Feb, 14:03`. */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** The last folder of a project path (`/home/me/app` → `app`); a project hash (Gemini CLI's) shortened. */
export function projectName(project: string): string {
  const parts = project.split(/[\\/]/).filter(Boolean);
  const name = parts.at(-1) ?? project;
  return /^[0-9a-f]{40,}$/i.test(name) ? `${name.slice(0, 12)}…` : name;
}
