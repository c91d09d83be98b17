import type http from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackListener {
  port: number;
  /** Stops the server, cutting every open connection (a stalled stream included) so that closing never waits on a client. */
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 at a free port: the one address the tests' fake upstreams may use. */
export async function listenOnLoopback(server: http.Server): Promise<LoopbackListener> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that was free a moment ago and has nothing listening: connecting to it is refused. */
export async function closedLoopbackPort(): Promise<number> {
  const { createServer } = await import("node:http");
  const { port, close } = await listenOnLoopback(createServer());
  await close();
  return port;
}
