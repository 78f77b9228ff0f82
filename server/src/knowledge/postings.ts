/**
 * A compact inverted index of one language's passages, scored with BM25+ into shared typed arrays.
 *
 * Why not a general search library: at 100k passages a frequent query term matches most of them,
 * and a library that builds one result object per matching document (with its matched terms and
 * fields) spends ~0.5 s per query on allocation, a filter callback and a full sort. Here a posting
 * is a pair of typed arrays, scores are added into a `Float64Array` indexed by passage number, and
 * only the best `limit` entries are ever turned into objects. The vocabulary is a radix tree
 * (MiniSearch's `SearchableMap`), so prefix and typo expansion walk terms, never documents.
 */
import SearchableMap from 'minisearch/SearchableMap';

/** BM25+ parameters (MiniSearch's defaults, which the ranking was tuned with). */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;
/** Weight of a prefix expansion at distance 0, and of a typo expansion (MiniSearch's defaults). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

export const TITLE = 0;
export const CONTENT = 1;
export type Field = typeof TITLE | typeof CONTENT;

/**
 * The passages (global numbers, ascending) containing a term in one field, with the term's BM25+
 * score in each — computed once at build time (the index is immutable), so a query only adds.
 */
interface Posting {
  docs: Int32Array;
  impacts: Float32Array;
}

type TermPostings = [title: Posting | null, content: Posting | null];

/** A processed query term and how far it may be expanded: the exact term always, then prefixes and typos. */
export interface QueryTerm {
  term: string;
  prefix: boolean;
  maxEdits: number;
}

/**
 * Per-passage scratch space shared by every language of one index (search is synchronous). A
 * query adds into it, the ranking scans it once, and `reset` clears it with two memsets: cheaper
 * than tracking which passages were touched inside the hot loop.
 */
export class Accumulator {
  readonly score: Float64Array;
  /** Distinct query terms matched by the passage (MiniSearch's "quality" multiplier); 0 = no match. */
  readonly matched: Uint16Array;
  /** The query-term number that last touched the passage, so several expansions of a term count once. */
  readonly stamps: Int32Array;
  private stampValue = 0;

  constructor(passages: number) {
    this.score = new Float64Array(passages);
    this.matched = new Uint16Array(passages);
    this.stamps = new Int32Array(passages);
  }

  /** Starts a new query term; answers its stamp. */
  nextTerm(): number {
    if (this.stampValue === 0x7fffffff) {
      this.stamps.fill(0);
      this.stampValue = 0;
    }
    return ++this.stampValue;
  }

  reset(): void {
    this.score.fill(0);
    this.matched.fill(0);
  }
}

/** Collects one language's postings while passages are added, then freezes them into typed arrays. */
export class PostingsBuilder {
  private readonly lists = new Map<string, [number[] | null, number[] | null]>();
  private readonly lengths: [number[], number[]] = [[], []];
  private readonly lengthDocs: number[] = [];

  /** Adds passage `doc` (global number, ascending across calls) with its processed terms per field. */
  add(doc: number, title: readonly string[], content: readonly string[]): void {
    this.lengthDocs.push(doc);
    this.addField(doc, TITLE, title);
    this.addField(doc, CONTENT, content);
  }

  private addField(doc: number, field: Field, terms: readonly string[]): void {
    this.lengths[field].push(terms.length);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, count] of counts) {
      let lists = this.lists.get(term);
      if (!lists) this.lists.set(term, (lists = [null, null]));
      // Flat [doc, freq, doc, freq, …]: one array per term and field instead of two.
      (lists[field] ??= []).push(doc, count);
    }
  }

  build(totalPassages: number): LanguagePostings {
    const lengths: [Uint16Array, Uint16Array] = [new Uint16Array(totalPassages), new Uint16Array(totalPassages)];
    const averages: [number, number] = [1, 1];
    const count = this.lengthDocs.length;
    for (const field of [TITLE, CONTENT] as const) {
      let sum = 0;
      this.lengthDocs.forEach((doc, i) => {
        const length = this.lengths[field][i]!;
        lengths[field][doc] = Math.min(length, 0xffff);
        sum += length;
      });
      averages[field] = count && sum ? sum / count : 1;
    }
    const vocabulary = new SearchableMap<TermPostings>();
    for (const [term, [title, content]] of this.lists) {
      vocabulary.set(term, [
        freeze(title, count, lengths[TITLE], averages[TITLE]),
        freeze(content, count, lengths[CONTENT], averages[CONTENT]),
      ]);
    }
    this.lists.clear();
    return new LanguagePostings(vocabulary, count);
  }
}

/** Flat [doc, freq, …] → a posting with each passage's BM25+ score for the term (MiniSearch's formula). */
function freeze(flat: number[] | null, passageCount: number, lengths: Uint16Array, averageLength: number): Posting | null {
  if (!flat) return null;
  const n = flat.length / 2;
  const idf = Math.log(1 + (passageCount - n + 0.5) / (n + 0.5));
  const docs = new Int32Array(n);
  const impacts = new Float32Array(n);
  for (let i = 0, j = 0; i < flat.length; i += 2, j++) {
    const doc = flat[i]!;
    const tf = flat[i + 1]!;
    docs[j] = doc;
    impacts[j] = idf * (DELTA + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[doc]!) / averageLength)));
  }
  return { docs, impacts };
}

export class LanguagePostings {
  constructor(
    private readonly vocabulary: SearchableMap<TermPostings>,
    /** Passages of this language: BM25's document count. */
    readonly passageCount: number,
  ) {}

  /**
   * Adds the BM25+ score of every passage matching `terms` to `acc`, each term with its prefix and
   * typo expansions (weighted down by their distance, as MiniSearch does). Answers every index
   * term that matched, for snippets.
   */
  score(terms: readonly QueryTerm[], fieldBoosts: readonly [number, number], acc: Accumulator): Set<string> {
    const matchedTerms = new Set<string>();
    if (this.passageCount === 0) return matchedTerms;
    for (const query of terms) {
      const stamp = acc.nextTerm();
      for (const [term, postings, weight] of this.expand(query)) {
        matchedTerms.add(term);
        for (const field of [TITLE, CONTENT] as const) {
          const posting = postings[field];
          if (posting) this.scorePosting(posting, weight * fieldBoosts[field], acc, stamp);
        }
      }
    }
    return matchedTerms;
  }

  private *expand(query: QueryTerm): Generator<[string, TermPostings, number]> {
    const exact = this.vocabulary.get(query.term);
    if (exact) yield [query.term, exact, 1];
    const seen = new Set<string>([query.term]);
    if (query.prefix) {
      for (const [term, postings] of this.vocabulary.atPrefix(query.term)) {
        if (seen.has(term)) continue;
        seen.add(term);
        const distance = term.length - query.term.length;
        yield [term, postings, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance)];
      }
    }
    if (query.maxEdits > 0) {
      for (const [term, [postings, distance]] of this.vocabulary.fuzzyGet(query.term, query.maxEdits)) {
        if (seen.has(term)) continue;
        yield [term, postings, (FUZZY_WEIGHT * term.length) / (term.length + distance)];
      }
    }
  }

  // The hot loop of a query: typed arrays only, no calls, so it compiles to tight code.
  private scorePosting(posting: Posting, boost: number, acc: Accumulator, stamp: number): void {
    const { docs, impacts } = posting;
    const { score, matched, stamps } = acc;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      score[doc]! += boost * impacts[i]!;
      if (stamps[doc] !== stamp) {
        stamps[doc] = stamp;
        matched[doc]! += 1;
      }
    }
  }
}
