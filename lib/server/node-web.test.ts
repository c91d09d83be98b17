import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listenOnLoopback } from "@/tests/support/loopback";
import { sendWebResponse } from "./node-web";

/** The writes a socket hands to the kernel (each `write`, or each batch of corked writes). */
type SocketFlushes = { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };

/** A loopback server answering every request with `respond()` through the adapter, counting its sockets' flushes to the kernel. */
async function serving(respond: () => Response) {
  const counted = { flushes: 0 };
  const server = http.createServer((_incoming, outgoing) => {
    const socket = outgoing.socket as unknown as SocketFlushes;
    for (const method of ["_write", "_writev"] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args) => {
        counted.flushes += 1;
        original(...args);
      };
    }
    void sendWebResponse(respond(), outgoing);
  });
  const { port, close } = await listenOnLoopback(server);
  return { port, close, counted };
}

/** The pieces a raw client receives for one GET until the server's answer is complete (or `until` matches). */
function receive(port: number, until: RegExp): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const pieces: string[] = [];
    const socket = net.connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n"));
    socket.setEncoding("latin1");
    socket.on("data", (piece: string) => {
      pieces.push(piece);
      if (until.test(pieces.join(""))) {
        socket.destroy();
        resolve(pieces);
      }
    });
    socket.on("error", reject);
    socket.on("end", () => resolve(pieces));
  });
}

describe("writing a web Response to Node", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it("[SV-4] a body already at hand leaves with its headers: one write carries the whole answer", async () => {
    const { port, close, counted } = await serving(() => new Response('{"object":"list","data":[]}', { headers: { "content-type": "application/json" } }));
    closers.push(close);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const pieces = await receive(port, /0\r\n\r\n$/);
      // The headers, the body and the closing chunk in one write to the kernel.
      expect(counted.flushes).toBe(attempt);
      expect(pieces.join("")).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: application\/json[\s\S]*\{"object":"list","data":\[\]\}\r\n0\r\n\r\n$/);
    }
  });

  it("[SV-4] a body whose first bytes are not there yet still gets its headers at once", async () => {
    const { port, close } = await serving(
      () => new Response(new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) }), { headers: { "content-type": "text/event-stream" } }),
    );
    closers.push(close);
    const pieces = await receive(port, /\r\n\r\n$/);
    expect(pieces.join("")).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: text\/event-stream\r\n[\s\S]*\r\n\r\n$/);
  });
});
