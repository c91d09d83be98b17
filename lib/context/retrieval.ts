/** A document a lexical index can rank. */
export interface SearchDocument {
  id: string;
  text: string;
}

export interface SearchHit<D extends SearchDocument = SearchDocument> {
  document: D;
  score: number;
}

export interface Bm25Options {
  k1?: number;
  b?: number;
}

// Words too common to tell documents apart, in the languages agents mostly write.
const STOP_WORDS = new Set(
  "a an and are as at be but by for from has have i if in into is it its me my of on or our so that the their them then there these they this to was we were what when which who will with you your".split(
    " ",
  ),
);

/** Lower-cased word and number tokens, stop words removed; splits snake_case and camelCase. */
export function tokenize(text: string): string[] {
  const words = text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  return (words ?? []).filter((word) => !STOP_WORDS.has(word));
}

/**
 * Okapi BM25 over a fixed set of documents, in memory, no network: the
 * retrieval over summaries and artifact summaries (MEM-7).
 * @example new Bm25Index(summaries).search("refund for cancelled flight", 3)
 */
export class Bm25Index<D extends SearchDocument = SearchDocument> {
  private readonly documents: D[];
  private readonly termCounts: Map<string, number>[];
  private readonly lengths: number[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  private readonly k1: number;
  private readonly b: number;

  constructor(documents: readonly D[], options: Bm25Options = {}) {
    this.documents = [...documents];
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.termCounts = this.documents.map((document) => {
      const counts = new Map<string, number>();
      for (const term of tokenize(document.text)) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const term of counts.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return counts;
    });
    this.lengths = this.termCounts.map((counts) => [...counts.values()].reduce((sum, count) => sum + count, 0));
    this.averageLength = this.lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, this.lengths.length);
  }

  /** The best `limit` documents with a positive score, best first; ties keep document order. */
  search(query: string, limit = 3): SearchHit<D>[] {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0 || this.documents.length === 0) return [];
    const total = this.documents.length;
    const hits: SearchHit<D>[] = [];
    this.termCounts.forEach((counts, index) => {
      let score = 0;
      for (const term of terms) {
        const frequency = counts.get(term);
        if (!frequency) continue;
        const containing = this.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (total - containing + 0.5) / (containing + 0.5));
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[index]) / (this.averageLength || 1));
        score += (idf * frequency * (this.k1 + 1)) / (frequency + norm);
      }
      if (score > 0) hits.push({ document: this.documents[index], score });
    });
    return hits.sort((a, b) => b.score - a.score).slice(0, Math.max(0, limit));
  }
}
