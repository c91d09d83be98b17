import { describe, expect, it } from "vitest";
import * as z from "zod";
import { HttpError, MAX_REPORTED_ISSUES } from "./errors";
import { readJsonBody } from "./http";

const schema = z.strictObject({ messages: z.array(z.strictObject({ role: z.string() })) });

describe("a body that fails its schema in many places", () => {
  it("[RL-ST5] answers 400 listing the first MAX_REPORTED_ISSUES issues, its message counting all of them", async () => {
    const body = JSON.stringify({ messages: new Array(5_000).fill(0) });
    const request = new Request("http://127.0.0.1/api/x", { method: "POST", body, headers: { "content-type": "application/json" } });
    const error = await readJsonBody(request, schema).catch((thrown: unknown) => thrown);
    if (!HttpError.isInstance(error)) throw new Error(`expected an HttpError, got ${String(error)}`);
    expect(error.status).toBe(400);
    expect(error.issues).toHaveLength(MAX_REPORTED_ISSUES);
    expect(error.issues?.[0].path).toBe("messages[0]");
    expect(error.message).toContain(`and ${5_000 - 3} more`);
  });
});
