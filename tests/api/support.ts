/** Helpers of the API tests: a test database behind the route handlers, and requests to them. */
import { afterEach, beforeEach } from "vitest";
import { resetDatabaseForTests, useDatabaseForTests } from "@/lib/api/database";
import { useTestDatabase, type TestProvider } from "@/tests/support/db";

/** `useTestDatabase(provider)`, with every route handler pointed at it for the test. */
export function useApiTestDatabase(provider: TestProvider): ReturnType<typeof useTestDatabase> {
  const test = useTestDatabase(provider);
  beforeEach(() => useDatabaseForTests(test.db));
  afterEach(() => resetDatabaseForTests());
  return test;
}

type Handler<Params> = (request: Request, context?: { params: Promise<Params> }) => Promise<Response>;

export interface CallOptions<Params> {
  method?: string;
  /** Path and query, e.g. `/api/conversations?limit=2`; only the query matters to a handler. */
  url?: string;
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  params?: Params;
}

export interface CallResult<Body> {
  status: number;
  body: Body;
  response: Response;
}

/** Calls an exported route handler with a real Request and reads the JSON answer (null for an empty body). */
export async function call<Body = any, Params = Record<string, never>>(handler: Handler<Params>, options: CallOptions<Params> = {}): Promise<CallResult<Body>> {
  const { method = options.body === undefined ? "GET" : "POST", url = "/api/test", headers = {}, params } = options;
  let body: string | undefined;
  if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(new URL(url, "http://localhost"), { method, body, headers });
  const response = await handler(request, params === undefined ? undefined : { params: Promise.resolve(params) });
  const text = await response.text();
  return { status: response.status, body: (text === "" ? null : JSON.parse(text)) as Body, response };
}
