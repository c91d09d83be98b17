import * as z from "zod";

/** Where a conversation came from, as the library filters it (LB-3). */
export const LIBRARY_SOURCES = ["import", "proxy", "agent"] as const;
export type LibrarySource = (typeof LIBRARY_SOURCES)[number];

/** What the library sorts by (LB-4): last change, creation, title, stored messages, stored tokens. */
export const LIBRARY_SORTS = ["updated", "created", "title", "messages", "tokens"] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

export const LIBRARY_ORDERS = ["desc", "asc"] as const;
export type LibraryOrder = (typeof LIBRARY_ORDERS)[number];

/** Conversations a page shows unless the query says otherwise. */
export const LIBRARY_PAGE_SIZE = 50;

/** BD4: an offset is compared with PostgreSQL's `integer`. */
const MAX_OFFSET = 2 ** 31 - 1;

const flag = z
  .enum(["true", "false"], { error: "must be true or false" })
  .optional()
  .transform((value) => value === "true");

const whole = (name: string) => z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`);

/**
 * The library's query as the URL and `GET /api/conversations` carry it
 * (LB-5): one schema for the route, the home page and the page's links.
 */
export const libraryQuerySchema = z.object({
  q: z.string().trim().max(500, "q must be at most 500 characters").default(""),
  source: z.enum(LIBRARY_SOURCES, { error: `source must be one of ${LIBRARY_SOURCES.join(", ")}` }).optional(),
  failed: flag,
  overBudget: flag,
  sort: z.enum(LIBRARY_SORTS, { error: `sort must be one of ${LIBRARY_SORTS.join(", ")}` }).default("updated"),
  order: z.enum(LIBRARY_ORDERS, { error: "order must be asc or desc" }).default("desc"),
  limit: whole("limit").min(1, "limit must be at least 1").max(500, "limit must be at most 500").default(LIBRARY_PAGE_SIZE),
  offset: whole("offset").min(0, "offset must not be negative").max(MAX_OFFSET, `offset must be at most ${MAX_OFFSET}`).default(0),
});

export type LibraryQuery = z.output<typeof libraryQuerySchema>;

export const DEFAULT_LIBRARY_QUERY: LibraryQuery = libraryQuerySchema.parse({});

/** The query's URL parameters, defaults left out so a plain home page stays `/`. */
export function librarySearchParams(query: LibraryQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.source) params.set("source", query.source);
  if (query.failed) params.set("failed", "true");
  if (query.overBudget) params.set("overBudget", "true");
  if (query.sort !== DEFAULT_LIBRARY_QUERY.sort) params.set("sort", query.sort);
  if (query.order !== DEFAULT_LIBRARY_QUERY.order) params.set("order", query.order);
  if (query.limit !== DEFAULT_LIBRARY_QUERY.limit) params.set("limit", String(query.limit));
  if (query.offset > 0) params.set("offset", String(query.offset));
  return params;
}

/** A page's URL parameters as a query; a parameter that does not parse is left at its default and named in `problems`. */
export function readLibraryQuery(params: Readonly<Record<string, string | string[] | undefined>>): { query: LibraryQuery; problems: string[] } {
  const input = Object.fromEntries(Object.entries(params).flatMap(([key, value]) => (typeof value === "string" ? [[key, value]] : [])));
  const result = libraryQuerySchema.safeParse(input);
  if (result.success) return { query: result.data, problems: [] };
  const bad = new Set(result.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(input).filter(([key]) => !bad.has(key)));
  return { query: libraryQuerySchema.parse(kept), problems: result.error.issues.map((issue) => issue.message) };
}
