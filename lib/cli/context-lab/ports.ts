import net from "node:net";

/** What answers at an address: Context Lab (`locked` when it wants an access token we lack), something else, or nothing. */
export type Occupant = "context-lab" | "locked" | "other" | "none";

/** How many ports after the default are tried before giving up (PK-4). */
export const PORT_ATTEMPTS = 20;

/** True when nothing listens on `host:port` and we may bind it. */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Authorization for the app's API when an access token is set (E-S3). */
export function authorizationOf(token: string | undefined): Record<string, string> {
  const trimmed = token?.trim();
  return trimmed ? { authorization: `Bearer ${trimmed}` } : {};
}

/** Asks `GET /api/health`: Context Lab answers JSON with `ok` and `database` (or 401 `unauthorized` behind a token). */
export async function probeOccupant(url: string, token: string | undefined): Promise<Occupant> {
  let response: Response;
  try {
    response = await fetch(`${url}/api/health`, { headers: authorizationOf(token), signal: AbortSignal.timeout(5_000) });
  } catch {
    return "none";
  }
  const body = (await response.json().catch(() => null)) as { ok?: unknown; database?: unknown; error?: { code?: unknown } } | null;
  if (body && typeof body.ok === "boolean" && typeof body.database === "string") return "context-lab";
  if (response.status === 401 && body?.error?.code === "unauthorized") return "locked";
  return "other";
}

export function appUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
