import { ApiError, errorFromBody } from "./errors";
import { reportDatabaseOutage } from "./database-outage";

/** What a query string may hold; undefined values are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined>;

export interface RequestTransportOptions {
  /** Prefix of every path: "" in the browser (same origin), `http://127.0.0.1:3000` elsewhere. */
  baseUrl?: string;
  /** Injected for tests and servers; defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface ApiRequest extends RequestOptions {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  query?: QueryValues;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as raw text (imports), `application/x-ndjson`. */
  text?: string;
  /** JSON text sent as it is (a file the user chose), `application/json`: the server reports a syntax error's line. */
  jsonText?: string;
  /** The answer's body as text (a file), instead of parsed JSON. */
  answer?: "json" | "text";
}

/** `/api/branches/${id}` with every dynamic segment encoded. */
export function apiPath(strings: TemplateStringsArray, ...segments: (string | number)[]): string {
  return strings.reduce((path, part, index) => path + part + (index < segments.length ? encodeURIComponent(String(segments[index])) : ""), "");
}

function withQuery(path: string, query: QueryValues | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === "" ? path : `${path}?${text}`;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === "AbortError");
}

/**
 * Sends one request and reads its JSON answer. Every failure becomes an
 * ApiError: the API's error body, a network failure (status 0,
 * `network_error`), an unreadable body (`invalid_response`) or an abort.
 */
export async function sendRequest<T>(transport: RequestTransportOptions, request: ApiRequest): Promise<T> {
  const url = `${transport.baseUrl ?? ""}${withQuery(request.path, request.query)}`;
  const what = `${request.method} ${request.path}`;
  const headers: Record<string, string> = { accept: "application/json" };
  let body: string | undefined;
  if (request.text !== undefined) {
    // Transcript text (JSON or JSONL): a type a cross-site form cannot send, which the server requires.
    headers["content-type"] = "application/x-ndjson; charset=utf-8";
    body = request.text;
  } else if (request.jsonText !== undefined) {
    headers["content-type"] = "application/json";
    body = request.jsonText;
  } else if (request.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.json);
  }
  const fetchImplementation = transport.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await fetchImplementation(url, { method: request.method, headers, body, signal: request.signal });
  } catch (error) {
    if (isAbort(error, request.signal)) throw new ApiError(0, "aborted", `${what} was aborted`, { cause: error });
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiError(0, "network_error", `${what} could not reach the server (${reason}); check that the app is running`, { cause: error });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (isAbort(error, request.signal)) throw new ApiError(0, "aborted", `${what} was aborted`, { cause: error });
    throw new ApiError(response.status, "network_error", `${what}: the response body could not be read`, { cause: error });
  }
  if (!response.ok) {
    const error = errorFromBody(response.status, response.statusText, text, what);
    if (error.code === "database_unavailable") reportDatabaseOutage({ database: String(error.details?.database ?? "the database"), message: error.message });
    throw error;
  }
  if (request.answer === "text") return text as T;
  if (response.status === 204 || text === "") return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ApiError(response.status, "invalid_response", `${what} answered with a body that is not JSON: ${text.slice(0, 120)}`, { cause: error });
  }
}
