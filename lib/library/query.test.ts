import { describe, expect, it } from "vitest";
import { DEFAULT_LIBRARY_QUERY, librarySearchParams, readLibraryQuery } from "./query";

describe("library query", () => {
  it("[LB-5] writes only what differs from the defaults, and reads back what it wrote", () => {
    expect(librarySearchParams(DEFAULT_LIBRARY_QUERY).toString()).toBe("");
    const query = {
      ...DEFAULT_LIBRARY_QUERY,
      q: "refund 2026-11",
      source: "proxy" as const,
      failed: true,
      sort: "tokens" as const,
      order: "asc" as const,
      offset: 100,
    };
    const params = librarySearchParams(query);
    expect(params.toString()).toBe("q=refund+2026-11&source=proxy&failed=true&sort=tokens&order=asc&offset=100");
    expect(readLibraryQuery(Object.fromEntries(params))).toEqual({ query, problems: [] });
  });

  it("[LB-5] leaves a parameter that does not parse at its default and says which", () => {
    const { query, problems } = readLibraryQuery({ q: "bags", sort: "size", offset: "-3", source: ["proxy", "import"] });
    expect(query).toEqual({ ...DEFAULT_LIBRARY_QUERY, q: "bags" });
    expect(problems).toEqual(["sort must be one of updated, created, title, messages, tokens", "offset must not be negative"]);
  });
});
