import { ApiError, errorFromBody } from "./errors";
import type { QueryValues } from "./request";

/** How far an upload is: bytes sent of the file's total. */
export interface UploadProgress {
  sent: number;
  total: number;
}

export interface UploadOptions {
  path: string;
  query?: QueryValues;
  /** The file as the user chose it: the browser sends it from disk, never read into the page. */
  body: Blob;
  /** Called as the body goes out, and once with everything sent when the server starts working on it. */
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/**
 * POSTs a file as JSON lines (`application/x-ndjson`, which both import routes take) and reads the JSON answer,
 * reporting the upload's progress: `fetch` reports none, so this is the one request sent with XMLHttpRequest.
 * Failures are ApiErrors, as `sendRequest` makes them.
 */
export function uploadFile<T>(options: UploadOptions): Promise<T> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) search.set(key, String(value));
  const url = search.size === 0 ? options.path : `${options.path}?${search}`;
  const what = `POST ${options.path}`;
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("content-type", "application/x-ndjson; charset=utf-8");
    request.setRequestHeader("accept", "application/json");
    request.upload.onprogress = (event) => options.onProgress?.({ sent: event.loaded, total: event.lengthComputable ? event.total : options.body.size });
    request.upload.onload = () => options.onProgress?.({ sent: options.body.size, total: options.body.size });
    request.onerror = () => reject(new ApiError(0, "network_error", `${what} could not reach the server; check that the app is running`));
    request.onabort = () => reject(new ApiError(0, "aborted", `${what} was aborted`));
    request.onload = () => {
      const text = request.responseText;
      if (request.status < 200 || request.status >= 300) {
        reject(errorFromBody(request.status, request.statusText, text, what));
        return;
      }
      try {
        resolve(JSON.parse(text) as T);
      } catch (error) {
        reject(new ApiError(request.status, "invalid_response", `${what} answered with a body that is not JSON: ${text.slice(0, 120)}`, { cause: error }));
      }
    };
    options.signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(options.body);
  });
}
