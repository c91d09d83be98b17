/** Names a request's `Host` may carry when nothing else is configured: this machine only. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "::1"];

/**
 * `HOST:PORT`, `[::1]:3000`, `Example.COM.` → the bare, lower-case name
 * (`::1`, `example.com`). BD8: a bracketed host is read whole: after `]`
 * only a port may follow, so `[::1]evil.example` has no name ("").
 */
export function hostNameOf(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith("[")) {
    const match = /^\[([0-9a-f:.]+)\](?::\d*)?$/.exec(trimmed);
    return match ? match[1] : "";
  }
  return trimmed.replace(/:\d*$/, "").replace(/\.$/, "");
}

/**
 * The names requests may be addressed to: loopback names plus the comma- or
 * space-separated `CONTEXT_LAB_ALLOWED_HOSTS` (a leading `.` allows every
 * subdomain: `.example.com`).
 */
export function allowedHostsOf(configured: string | undefined): string[] {
  const extra = (configured ?? "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => (entry.startsWith(".") ? `.${hostNameOf(entry.slice(1))}` : hostNameOf(entry)));
  return [...LOOPBACK_HOSTS, ...extra];
}

/**
 * Whether a `Host` header names this server. Refusing other names is what
 * defeats DNS rebinding: a page on `evil.example` that re-points its name at
 * 127.0.0.1 still sends `Host: evil.example`.
 */
export function isAllowedHost(host: string | null, allowed: readonly string[]): boolean {
  if (!host) return false;
  const name = hostNameOf(host);
  if (name === "") return false;
  return allowed.some((entry) => (entry.startsWith(".") ? name === entry.slice(1) || name.endsWith(entry) : name === entry));
}
