import { describe, expect, it } from "vitest";
import { Bm25Index, tokenize } from "./retrieval";

const documents = [
  { id: "bags", text: "Checked bag allowance: gold members get three free checked bags per passenger." },
  { id: "refund", text: "A cancelled flight is refunded to the original payment method within 5 to 7 business days." },
  { id: "insurance", text: "Travel insurance refunds the full price when the cancellation is for health or weather reasons." },
  { id: "seats", text: "Seat upgrades to business class are charged at the fare difference." },
];

describe("tokenize", () => {
  it("lower-cases, splits snake_case and camelCase, and drops stop words", () => {
    expect(tokenize("The getUserDetails tool and book_reservation, in 2024!")).toEqual(["get", "user", "details", "tool", "book", "reservation", "2024"]);
    expect(tokenize("Ünïcode 中文 words")).toEqual(["ünïcode", "中文", "words"]);
    expect(tokenize("the of and")).toEqual([]);
  });
});

describe("Bm25Index", () => {
  it("ranks the documents that share the query's rare terms first", () => {
    const hits = new Bm25Index(documents).search("refund cancelled flight", 4);
    expect(hits[0].document.id).toBe("refund");
    expect(hits.map((hit) => hit.document.id)).not.toContain("seats");
    for (let index = 1; index < hits.length; index += 1) expect(hits[index - 1].score).toBeGreaterThanOrEqual(hits[index].score);
    expect(hits.every((hit) => hit.score > 0)).toBe(true);
  });

  it("returns at most `limit` hits, 3 by default", () => {
    const index = new Bm25Index(documents);
    expect(index.search("the flight bags insurance seat business refund", 2)).toHaveLength(2);
    expect(index.search("the flight bags insurance seat business refund")).toHaveLength(3);
    expect(index.search("flight", 0)).toEqual([]);
  });

  it("finds nothing for an empty or stop-word query, or an empty index", () => {
    expect(new Bm25Index(documents).search("the and of")).toEqual([]);
    expect(new Bm25Index(documents).search("")).toEqual([]);
    expect(new Bm25Index([]).search("flight")).toEqual([]);
  });

  it("keeps document order for equal scores", () => {
    const same = [
      { id: "first", text: "alpha beta" },
      { id: "second", text: "alpha beta" },
      { id: "other", text: "gamma" },
    ];
    expect(new Bm25Index(same).search("alpha").map((hit) => hit.document.id)).toEqual(["first", "second"]);
  });

  it("rewards a term found more often and penalises longer documents", () => {
    const index = new Bm25Index([
      { id: "once", text: "refund policy text here" },
      { id: "twice", text: "refund refund policy text" },
      { id: "long", text: `refund ${"filler ".repeat(50)}` },
    ]);
    expect(index.search("refund").map((hit) => hit.document.id)).toEqual(["twice", "once", "long"]);
  });
});
