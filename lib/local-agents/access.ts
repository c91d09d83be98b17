type Environment = Record<string, string | undefined>;

/** Whether the Local agents page and API are offered, and why (LA2). */
export interface LocalAgentsAccess {
  enabled: boolean;
  reason: "loopback" | "switched-on" | "switched-off" | "not-loopback" | "host-unknown";
  /** The address the server was started on (`HOST`), or null when it was not said. */
  host: string | null;
  /** What to tell people, in their words. */
  message: string;
}

const SWITCH = "CONTEXT_LAB_LOCAL_AGENTS";

/** `127.0.0.1`, `127.1.2.3`, `localhost`, `::1`, `[::1]`: this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * LA2: the session files of this machine are offered only to a server bound to
 * loopback, where the only people who can ask are this machine's own users.
 * `scripts/serve.sh` exports the address it binds as HOST; a server started
 * otherwise may listen on every address, so an unknown HOST counts as not loopback.
 * `CONTEXT_LAB_LOCAL_AGENTS=1` switches the feature on anyway, `=0` off.
 */
export function localAgentsAccessOf(env: Environment): LocalAgentsAccess {
  const host = env.HOST?.trim() || null;
  const switched = env[SWITCH]?.trim().toLowerCase();
  if (switched === "0" || switched === "false" || switched === "off") {
    return { enabled: false, reason: "switched-off", host, message: `Local agents are switched off (${SWITCH}=${env[SWITCH]?.trim()}).` };
  }
  if (switched === "1" || switched === "true" || switched === "on") {
    return { enabled: true, reason: "switched-on", host, message: `Local agents are switched on by ${SWITCH}.` };
  }
  if (host === null) {
    return {
      enabled: false,
      reason: "host-unknown",
      host,
      message:
        "Local agents are offered only when the app listens on this machine alone, and this server was started without saying which address it listens on. " +
        `Start it with npm start or npm run dev (they listen on 127.0.0.1), or set ${SWITCH}=1.`,
    };
  }
  if (!isLoopbackHost(host)) {
    return {
      enabled: false,
      reason: "not-loopback",
      host,
      message:
        `Local agents are off because this server listens on ${host}, where other machines can reach it: the sessions on this machine would be theirs to read. ` +
        `Listen on 127.0.0.1 (the default), or set ${SWITCH}=1 if everyone who can reach the server may read them.`,
    };
  }
  return { enabled: true, reason: "loopback", host, message: `Local agents are on: this server listens on ${host} only.` };
}
