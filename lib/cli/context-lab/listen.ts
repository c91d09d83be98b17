import { CliUsageError, type PortChoice } from "./arguments";
import type { Environment } from "./home";
import { appUrl, isPortFree, type Occupant, PORT_ATTEMPTS, probeOccupant } from "./ports";

/** The address the app listens on: `HOST` (default 127.0.0.1); anything but loopback needs an access token, as `scripts/serve.sh` (E-S1). */
export function resolveHost(env: Environment): string {
  const host = env.HOST?.trim() || "127.0.0.1";
  const token = env.CONTEXT_LAB_TOKEN?.replace(/\s/g, "") ?? "";
  const loopback = /^127\./.test(host) || host === "localhost" || host === "::1" || host === "[::1]";
  if (!loopback && !token) {
    throw new CliUsageError(
      `Context Lab refuses to listen on ${host} without an access token: anyone who can reach this machine could read every conversation and spend the stored upstream API key. Bind this machine only (HOST=127.0.0.1, the default), or set CONTEXT_LAB_TOKEN to at least 16 characters (e.g. $(openssl rand -hex 24)) and list the names clients use in CONTEXT_LAB_ALLOWED_HOSTS.`,
    );
  }
  if (token && token.length < 16) throw new CliUsageError(`CONTEXT_LAB_TOKEN is ${token.length} characters; use at least 16 (e.g. $(openssl rand -hex 24))`);
  return host.replace(/^\[(.*)\]$/, "$1");
}

/** Where a command found, or may start, the app. */
export interface Placement {
  port: number;
  url: string;
  occupant: Occupant;
}

/**
 * PK-4: the asked port, or the default and then the next ones, stopping at the first that is free or
 * (`acceptRunning`, for `record`) already serves Context Lab. An asked port that holds something else fails.
 */
export async function placeApp(host: string, choice: PortChoice, token: string | undefined, acceptRunning: boolean): Promise<Placement> {
  const attempts = choice.explicit ? 1 : PORT_ATTEMPTS;
  for (let offset = 0; offset < attempts; offset += 1) {
    const port = choice.port + offset;
    const url = appUrl(host, port);
    if (await isPortFree(host, port)) return { port, url, occupant: "none" };
    const occupant = await probeOccupant(url, token);
    if (acceptRunning && (occupant === "context-lab" || occupant === "locked")) return { port, url, occupant };
    if (choice.explicit) {
      const what = occupant === "context-lab" || occupant === "locked" ? "Context Lab is already running there" : "something else listens there";
      throw new CliUsageError(`port ${port} on ${host} is taken (${what}); choose another with --port N or PORT`);
    }
  }
  throw new CliUsageError(`ports ${choice.port} to ${choice.port + attempts - 1} on ${host} are all taken; choose one with --port N or PORT`);
}
