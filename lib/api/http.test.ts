import { describe, expect, it } from "vitest";
import * as z from "zod";
import { HttpError, describeError } from "./errors";
import { MAX_JSON_BODY_BYTES, lineAndColumn, otherMethods, parseJsonText, readBodyLines, readBodyText, readJsonBody, readQuery, route } from "./http";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

function streamedRequest(chunks: Uint8Array[], headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/x", { method: "POST", body: streamOf(chunks), headers, duplex: "half" } as RequestInit);
}

async function thrown(work: () => Promise<unknown> | unknown): Promise<HttpError> {
  try {
    await work();
  } catch (error) {
    if (HttpError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an HttpError");
}

describe("readBodyText", () => {
  it("refuses a body whose content-length is over the limit before reading it", async () => {
    const request = streamedRequest([new Uint8Array(10)], { "content-length": "5000" });
    const error = await thrown(() => readBodyText(request, 1000, "import"));
    expect(error).toMatchObject({ status: 413, code: "payload_too_large", details: { bytes: 5000, limit: 1000 } });
    expect(error.message).toBe("the import is 4.9 KB, over the 1000 bytes limit (1000 bytes)");
  });

  it("refuses a streamed body without content-length once it passes the limit", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(400));
      },
    });
    const request = new Request("http://localhost/x", { method: "POST", body: endless, duplex: "half" } as RequestInit);
    const error = await thrown(() => readBodyText(request, 1000));
    expect(error).toMatchObject({ status: 413, details: { limit: 1000 } });
    expect(pulled).toBeLessThan(10);
  });

  it("reads a body in chunks as UTF-8, characters split across chunks included", async () => {
    const bytes = new TextEncoder().encode("héllo ✓");
    const request = streamedRequest([bytes.slice(0, 2), bytes.slice(2, 9), bytes.slice(9)]);
    expect(await readBodyText(request, 1000)).toBe("héllo ✓");
  });

  it("refuses bytes that are not UTF-8 with 400, a body that ends inside a character too", async () => {
    const error = await thrown(() => readBodyText(streamedRequest([new Uint8Array([0xff, 0xfe, 0x41])]), 1000));
    expect(error).toMatchObject({ status: 400, code: "invalid_request" });
    const cut = new TextEncoder().encode("ok ✓").slice(0, -1);
    expect(await thrown(() => readBodyText(streamedRequest([cut]), 1000))).toMatchObject({ status: 400, code: "invalid_request" });
  });
});

describe("readBodyLines", () => {
  async function linesOf(request: Request, limit = 1000): Promise<string[]> {
    const lines: string[] = [];
    for await (const line of readBodyLines(request, limit)) lines.push(line);
    return lines;
  }

  it("[SE-5] gives the lines as they arrive, lines and characters split across chunks included, without their newlines", async () => {
    const bytes = new TextEncoder().encode('{"a":"é"}\n{"b":"✓✓"}\n\n{"c":3}');
    const cuts = [3, 8, 9, 15, 19, 20];
    const chunks = [0, ...cuts].map((start, index) => bytes.slice(start, [...cuts, bytes.length][index]));
    expect(await linesOf(streamedRequest(chunks))).toEqual(['{"a":"é"}', '{"b":"✓✓"}', "", '{"c":3}']);
  });

  it("[SE-5] refuses a body once it passes the limit, and bytes that are not UTF-8", async () => {
    const error = await thrown(() => linesOf(streamedRequest([new Uint8Array(600).fill(10), new Uint8Array(600).fill(10)])));
    expect(error).toMatchObject({ status: 413, details: { limit: 1000 } });
    const invalid = await thrown(() => linesOf(streamedRequest([new Uint8Array([0x41, 0x0a, 0xff])])));
    expect(invalid).toMatchObject({ status: 400, code: "invalid_request" });
  });
});

describe("parseJsonText", () => {
  it.each([
    ['{\n  "title": "x",\n  "messages": [\n}', 4, 1],
    ['{"a": 1,}', 1, 9],
    ["[1, 2", 1, 6],
    ['{\n"a": 1\n"b": 2}', 3, 1],
  ])("locates the syntax error in %j at line %i, column %i", (text, line, column) => {
    const error = (() => {
      try {
        parseJsonText(text);
      } catch (caught) {
        return caught as HttpError;
      }
      throw new Error("parsed");
    })();
    expect(error).toMatchObject({ status: 400, code: "invalid_json" });
    expect(error.issues?.[0]).toMatchObject({ path: "", line, column });
    expect(error.message).toContain(`line ${line}, column ${column}`);
  });

  it("counts lines and columns from 1", () => {
    expect(lineAndColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});

describe("readJsonBody and readQuery", () => {
  const schema = z.strictObject({ force: z.boolean().optional() });

  it("reads an empty body as {}", async () => {
    expect(await readJsonBody(new Request("http://localhost/x", { method: "POST" }), schema)).toEqual({});
  });

  it("enforces the JSON body limit", async () => {
    const request = new Request("http://localhost/x", { method: "POST", body: "x", headers: { "content-length": String(MAX_JSON_BODY_BYTES + 1) } });
    expect(await thrown(() => readJsonBody(request, schema))).toMatchObject({ status: 413, details: { limit: MAX_JSON_BODY_BYTES } });
  });

  it("names the field a body or query fails on", async () => {
    const request = new Request("http://localhost/x", { method: "POST", body: '{"force": "yes"}' });
    const error = await thrown(() => readJsonBody(request, schema));
    expect(error).toMatchObject({ status: 400, code: "invalid_request", issues: [{ path: "force" }] });
    const query = await thrown(() => readQuery(new Request("http://localhost/x?n=abc"), z.object({ n: z.coerce.number().int() })));
    expect(query.issues).toEqual([expect.objectContaining({ path: "n" })]);
  });
});

describe("route and describeError", () => {
  it("hands the handler awaited params and maps what it throws", async () => {
    const handler = route<{ id: string }>(async (_request, { id }) => {
      throw new HttpError(409, "conflict", `busy ${id}`);
    });
    const response = await handler(new Request("http://localhost/x"), { params: Promise.resolve({ id: "b1" }) });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { code: "conflict", message: "busy b1" } });
  });

  it("logs an unexpected error and answers 500", async () => {
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const { status, body } = describeError(new TypeError("boom"));
      expect(status).toBe(500);
      expect(body.error).toMatchObject({ code: "internal_error" });
      expect(body.error.message).toContain("boom");
    } finally {
      console.error = original;
    }
    expect(logged).toHaveLength(1);
  });
});

describe("parseJsonText: input limits", () => {
  it("[S7] refuses nesting deeper than the limit with 400 and a line and column", () => {
    const text = `{"metadata":${"[".repeat(3000)}${"]".repeat(3000)}}`;
    expect(() => parseJsonText(text)).toThrow(/nests deeper than 100 levels.*line 1, column 112/);
  });

  it("[S7] refuses a lone surrogate with 400 naming the field", () => {
    try {
      parseJsonText('{"messages":[{"role":"user","content":"\\ud83d"}]}');
      throw new Error("expected a refusal");
    } catch (error) {
      expect(HttpError.isInstance(error) && error.status).toBe(400);
      expect((error as HttpError).issues).toEqual([expect.objectContaining({ path: "messages[0].content" })]);
    }
  });
});

describe("otherMethods", () => {
  it("[S7] answers unserved methods 405 with Allow and a JSON body", async () => {
    const handlers = otherMethods("GET", "POST");
    expect(Object.keys(handlers).sort()).toEqual(["DELETE", "OPTIONS", "PATCH", "PUT"]);
    const response = await handlers.PUT(new Request("http://127.0.0.1/api/x", { method: "PUT" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(await response.json()).toMatchObject({ error: { code: "method_not_allowed" } });
  });
});
