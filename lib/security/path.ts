/**
 * BD-1: why a request's path cannot be read, or null when it can. A `%` must
 * start an escape of two hexadecimal digits, the escaped bytes must be
 * UTF-8, and no control character may hide behind an escape (`%00` would
 * reach the database as an id, which PostgreSQL refuses). Next answers such
 * a path with a plain-text 500 if it gets that far.
 */
export function findMalformedPath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return "its percent-encoding is broken: each % must be followed by two hexadecimal digits, and the escaped bytes must be UTF-8";
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
  const control = /[\u0000-\u001F\u007F]/.exec(decoded);
  if (control) return `it holds the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  return null;
}
