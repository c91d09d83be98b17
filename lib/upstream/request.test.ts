import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { networkErrorOf, passthroughHeaders } from "./forward";
import { requestUpstream } from "./request";

/** A real HTTP server on 127.0.0.1 answering with `handler`; counts the connections it accepted. */
async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  let connections = 0;
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const post = (url: string, body: string, signal = new AbortController().signal) =>
  requestUpstream(url, { method: "POST", headers: new Headers({ "content-type": "application/json" }), body, signal });

describe("the proxy's second hop", () => {
  it("[UP-1] sends the body and headers, and answers with the upstream's status, headers and bytes on one kept-alive connection", async () => {
    const seen: { method?: string; type?: string; body: string }[] = [];
    const server = await serve((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        seen.push({ method: request.method, type: request.headers["content-type"], body });
        response.writeHead(201, { "content-type": "application/json", "x-request-id": "req_1" });
        response.end(`{"echo":${body}}`);
      });
    });
    servers.push(server);
    for (let call = 0; call < 5; call += 1) {
      const response = await post(`${server.url}/v1/chat/completions`, `{"call":${call},"text":"é"}`);
      expect(response.status).toBe(201);
      expect(response.headers.get("x-request-id")).toBe("req_1");
      expect(await response.json()).toEqual({ echo: { call, text: "é" } });
    }
    expect(seen.map((request) => [request.method, request.type])).toEqual(Array(5).fill(["POST", "application/json"]));
    expect(server.connections()).toBe(1);
  });

  it("[UP-1] decodes a body the upstream compressed anyway; the agent gets it without the encoding header", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(zlib.gzipSync(JSON.stringify({ id: "chatcmpl-1" })));
    });
    servers.push(server);
    const response = await post(`${server.url}/v1/chat/completions`, "{}");
    expect(await response.json()).toEqual({ id: "chatcmpl-1" });
    expect(passthroughHeaders(response.headers).get("content-encoding")).toBeNull();
  });

  it("[UP-1] passes a redirect back instead of following it", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(307, { location: "http://127.0.0.1:9/elsewhere" });
      response.end();
    });
    servers.push(server);
    const response = await post(`${server.url}/v1/chat/completions`, "{}");
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://127.0.0.1:9/elsewhere");
  });

  it("[UP-1] a refused connection rejects with Node's error, which networkErrorOf reads", async () => {
    const server = await serve(() => undefined);
    const url = server.url;
    await server.close();
    const error = await post(`${url}/v1/chat/completions`, "{}").catch((failure: unknown) => failure);
    expect(networkErrorOf(error)).toEqual({ code: "ECONNREFUSED", message: expect.stringMatching(/connect ECONNREFUSED 127\.0\.0\.1:\d+/) });
  });

  it("[UP-1] a body cut after its headers, or aborted by the call's signal, errors the body after the bytes that came", async () => {
    let cut!: () => void;
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      cut = () => response.socket?.destroy();
    });
    servers.push(server);
    const read = async (response: Response, after: () => void) => {
      const reader = response.body!.getReader();
      const first = await reader.read();
      after();
      const rest = await reader.read().then(
        () => reader.read(),
        (error: unknown) => error,
      );
      return { first: new TextDecoder().decode(first.value), rest };
    };
    const severed = await read(await post(`${server.url}/v1/chat/completions`, "{}"), () => cut());
    expect(severed.first).toBe("data: first\n\n");
    expect(severed.rest).toBeInstanceOf(Error);

    const controller = new AbortController();
    const aborted = await read(await post(`${server.url}/v1/chat/completions`, "{}", controller.signal), () => controller.abort(new Error("timeout")));
    expect(aborted.first).toBe("data: first\n\n");
    expect(aborted.rest).toBeInstanceOf(Error);
  });

  it("[UP-2] a call on a kept-alive connection the upstream closed as idle is sent again on a fresh one; a fresh connection's reset is the call's", async () => {
    const served = new WeakMap<object, number>();
    let dropped = 0;
    const server = await serve((request, response) => {
      const earlier = served.get(request.socket) ?? 0;
      served.set(request.socket, earlier + 1);
      // The first connection's second request meets the close of an idle connection: no answer, the socket gone.
      if (earlier === 1 && dropped === 0) {
        dropped += 1;
        request.socket.destroy();
        return;
      }
      request.resume();
      request.on("end", () => response.end(`{"call":${earlier}}`));
    });
    servers.push(server);
    expect(await (await post(`${server.url}/v1/chat/completions`, "{}")).json()).toEqual({ call: 0 });
    const again = await post(`${server.url}/v1/chat/completions`, "{}");
    expect(await again.json()).toEqual({ call: 0 });
    expect(dropped).toBe(1);
    expect(server.connections()).toBe(2);

    const resetting = await serve((request) => request.socket.destroy());
    servers.push(resetting);
    const fresh = post(`${resetting.url}/v1/chat/completions`, "{}");
    await expect(fresh).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(resetting.connections()).toBe(1);
  });
});
