/**
 * A compact, mutable inverted index of one language's passages, scored with BM25+ into shared
 * typed arrays.
 *
 * Why not a general search library: at 100k passages a frequent query term matches most of them,
 * and a library that builds one result object per matching document (with its matched terms and
 * fields) spends ~0.5 s per query on allocation, a filter callback and a full sort. Here a posting
 * is a pair of typed arrays, scores are added into a `Float64Array` indexed by passage number, and
 * only the best `limit` entries are ever materialised. The vocabulary is a radix tree
 * (MiniSearch's `SearchableMap`), so prefix and typo expansion walk terms, never documents.
 *
 * Postings hold term frequencies, not scores: BM25's inputs (document count, a term's document
 * frequency, the average field length) change with every write, so the score is computed while
 * a query adds it up. That lets one passage be added or removed without touching any other, and
 * keeps an index updated write by write scoring exactly like one built from scratch.
 */
import SearchableMap from 'minisearch/SearchableMap';

/** BM25+ parameters (MiniSearch's defaults, which the ranking was tuned with). */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;
/** Weight of a prefix expansion at distance 0, and of a typo expansion (MiniSearch's defaults). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** Field lengths and term frequencies are stored in 16 bits (a passage is ~800 characters). */
const MAX_U16 = 0xffff;

export const TITLE = 0;
export const CONTENT = 1;
export type Field = typeof TITLE | typeof CONTENT;
const FIELDS = [TITLE, CONTENT] as const;

/** Grows a typed array to at least `needed` elements (doubling), keeping its contents. */
function grown<T extends Int32Array | Uint16Array | Float64Array>(array: T, needed: number): T {
  if (array.length >= needed) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2, 16));
  next.set(array);
  return next;
}

/**
 * The passages (global numbers, ascending) containing a term in one field, with the term's
 * frequency in each. Ascending order keeps a query's writes into the score array sequential and
 * lets a passage be found by binary search when it is removed.
 */
class Posting {
  docs = new Int32Array(4);
  tfs = new Uint16Array(4);
  length = 0;

  /** Where `doc` is, or where it would go. */
  private find(doc: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(doc: number, tf: number): void {
    this.docs = grown(this.docs, this.length + 1);
    this.tfs = grown(this.tfs, this.length + 1);
    const at = this.length && this.docs[this.length - 1]! < doc ? this.length : this.find(doc); // appending is the usual case
    if (at < this.length) {
      this.docs.copyWithin(at + 1, at, this.length);
      this.tfs.copyWithin(at + 1, at, this.length);
    }
    this.docs[at] = doc;
    this.tfs[at] = Math.min(tf, MAX_U16);
    this.length++;
  }

  remove(doc: number): void {
    const at = this.find(doc);
    if (at >= this.length || this.docs[at] !== doc) return;
    this.docs.copyWithin(at, at + 1, this.length);
    this.tfs.copyWithin(at, at + 1, this.length);
    this.length--;
  }
}

type TermPostings = [title: Posting | null, content: Posting | null];

/** A processed query term and how far it may be expanded: the exact term always, then prefixes and typos. */
export interface QueryTerm {
  term: string;
  prefix: boolean;
  maxEdits: number;
}

/**
 * Per-passage arrays shared by every language of one index: each field's length (BM25's length
 * normalisation) and the scratch space of a query (search is synchronous). A query adds into the
 * scratch, the ranking scans it once, and `reset` clears it with two memsets: cheaper than
 * tracking which passages were touched inside the hot loop.
 */
export class PassageArrays {
  lengths: [Uint16Array, Uint16Array] = [new Uint16Array(16), new Uint16Array(16)];
  score = new Float64Array(16);
  /** Distinct query terms matched by the passage (MiniSearch's "quality" multiplier); 0 = no match. */
  matched = new Uint16Array(16);
  /** The query-term number that last touched the passage, so several expansions of a term count once. */
  stamps = new Int32Array(16);
  private stampValue = 0;

  /** Makes room for passage numbers below `count`. */
  ensure(count: number): void {
    if (this.score.length >= count) return;
    this.lengths = [grown(this.lengths[TITLE], count), grown(this.lengths[CONTENT], count)];
    this.score = grown(this.score, count);
    this.matched = grown(this.matched, count);
    this.stamps = grown(this.stamps, count);
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

function idfOf(passages: number, holding: number): number {
  return Math.log(1 + (passages - holding + 0.5) / (holding + 0.5));
}

/** How often each term occurs in `terms`. */
function counts(terms: readonly string[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const term of terms) result.set(term, (result.get(term) ?? 0) + 1);
  return result;
}

export class LanguagePostings {
  /** Exact lookups while writing; the radix tree holds the same objects for prefix and typo expansion. */
  private readonly terms = new Map<string, TermPostings>();
  private readonly vocabulary = new SearchableMap<TermPostings>();
  /** Passages of this language: BM25's document count. */
  private passageCount = 0;
  /** Sum of each field's length over this language's passages, for the average. */
  private readonly lengthSums: [number, number] = [0, 0];

  constructor(private readonly arrays: PassageArrays) {}

  get size(): number {
    return this.passageCount;
  }

  /**
   * BM25's inverse document frequency of a processed term, counted as if there were at least
   * `minPassages` passages: in a knowledge base of three entries every word would otherwise weigh
   * about the same. A term no passage holds weighs the most (for the relevance: a word the
   * knowledge never uses is one it cannot answer).
   */
  idf(term: string, minPassages = 0): number {
    const postings = this.terms.get(term);
    const n = Math.max(postings?.[TITLE]?.length ?? 0, postings?.[CONTENT]?.length ?? 0);
    return idfOf(Math.max(this.passageCount, minPassages), n);
  }

  /** Adds passage `doc` (a free global number) with its processed terms per field. */
  add(doc: number, title: readonly string[], content: readonly string[]): void {
    this.passageCount++;
    for (const [field, terms] of [[TITLE, title], [CONTENT, content]] as const) {
      this.lengthSums[field] += terms.length;
      this.arrays.lengths[field][doc] = Math.min(terms.length, MAX_U16);
      for (const [term, tf] of counts(terms)) {
        let postings = this.terms.get(term);
        if (!postings) {
          postings = [null, null];
          this.terms.set(term, postings);
          this.vocabulary.set(term, postings);
        }
        (postings[field] ??= new Posting()).insert(doc, tf);
      }
    }
  }

  /** Removes passage `doc`; `title` and `content` must be the terms it was added with. */
  remove(doc: number, title: readonly string[], content: readonly string[]): void {
    this.passageCount--;
    for (const [field, terms] of [[TITLE, title], [CONTENT, content]] as const) {
      this.lengthSums[field] -= terms.length;
      this.arrays.lengths[field][doc] = 0;
      for (const term of new Set(terms)) {
        const postings = this.terms.get(term);
        const posting = postings?.[field];
        if (!postings || !posting) continue;
        posting.remove(doc);
        if (posting.length === 0) postings[field] = null;
        if (!postings[TITLE] && !postings[CONTENT]) {
          // Gone from the vocabulary too, so prefix and typo expansion never meet a dead term.
          this.terms.delete(term);
          this.vocabulary.delete(term);
        }
      }
    }
  }

  /**
   * Adds the BM25+ score of every passage matching `terms` to the shared arrays, each term with
   * its prefix and typo expansions (weighted down by their distance, as MiniSearch does). Answers
   * every index term that matched, for snippets.
   */
  score(terms: readonly QueryTerm[], fieldBoosts: readonly [number, number]): Set<string> {
    const matchedTerms = new Set<string>();
    if (this.passageCount === 0) return matchedTerms;
    for (const query of terms) {
      const stamp = this.arrays.nextTerm();
      for (const [term, postings, weight] of this.expand(query)) {
        matchedTerms.add(term);
        for (const field of FIELDS) {
          const posting = postings[field];
          if (posting) this.scorePosting(posting, field, weight * fieldBoosts[field], stamp);
        }
      }
    }
    return matchedTerms;
  }

  private *expand(query: QueryTerm): Generator<[string, TermPostings, number]> {
    const exact = this.terms.get(query.term);
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

  // The hot loop of a query: typed arrays only, no calls, so it compiles to tight code. BM25+ as
  // MiniSearch computes it, idf × (δ + tf·(k1+1) / (tf + k1·(1 − b + b·length/average))), with
  // everything but tf and length hoisted out of the loop.
  private scorePosting(posting: Posting, field: Field, boost: number, stamp: number): void {
    const n = posting.length;
    const idf = idfOf(this.passageCount, n);
    const sum = this.lengthSums[field];
    const average = sum ? sum / this.passageCount : 1;
    const weight = boost * idf;
    const base = K1 * (1 - B);
    const perLength = (K1 * B) / average;
    const { docs, tfs } = posting;
    const lengths = this.arrays.lengths[field];
    const { score, matched, stamps } = this.arrays;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const tf = tfs[i]!;
      score[doc]! += weight * (DELTA + (tf * (K1 + 1)) / (tf + base + perLength * lengths[doc]!));
      if (stamps[doc] !== stamp) {
        stamps[doc] = stamp;
        matched[doc]! += 1;
      }
    }
  }
}
