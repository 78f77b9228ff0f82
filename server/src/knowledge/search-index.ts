/**
 * The in-memory search index of one account's knowledge base, kept current entry by entry.
 *
 * Each entry is cut into passages; every passage is a document with a title and a content field,
 * indexed in its entry's language (its own stemmer and stopwords) — one inverted index per language.
 * A query is processed once per language it may match and scored with BM25+ (titles boosted,
 * prefix and typo expansions weighted down, passages matching more query terms multiplied up).
 * Results are grouped per entry: an entry scores as its best passage, its snippet is cut from that
 * passage, and only the best `limit` entries are ever materialised. Equal scores rank by entry id,
 * so an index updated write by write answers exactly like one built from scratch.
 */
import type { KnowledgeHit } from '../../../src/client/types.ts';
import { LanguagePostings, PassageArrays, type QueryTerm } from './postings.ts';
import { MIN_PASSAGES, relevanceOf, signalsOf, type RelevanceSignals, type WeightedTerm } from './relevance.ts';
import { isLanguage, LANGUAGES, type Language } from '../text/languages.ts';
import { sameTextKey, words } from '../text/words.ts';
import { chunk, isContentWord, processTerm, snippet } from './text.ts';

export interface IndexedEntry {
  id: string;
  title: string;
  content: string;
  tags: string[];
  language: string;
  source: string | null;
  /** The page of an imported entry (migration 012). */
  url?: string | null;
  heading_path?: string[];
}

export interface SearchOptions {
  q: string;
  limit: number;
  tags?: string[];
  language?: string;
}

/** Title matches count this much more than content matches. */
const TITLE_BOOST = 2.5;
const FIELD_BOOSTS = [TITLE_BOOST, 1] as const;
/** Prefix matching from 3 characters, typo tolerance (20 % of the term, at most 2 edits) from 4. */
const PREFIX_FROM = 3;
const FUZZY_FROM = 4;
const FUZZY_SHARE = 0.2;
const MAX_EDITS = 2;

interface EntryRecord {
  entry: IndexedEntry;
  language: Language;
  /** Its passages' numbers, in text order. */
  passages: number[];
}

interface Passage {
  entry: EntryRecord;
  /** Position in the entry: on a tie, the earlier passage gives the snippet. */
  ordinal: number;
  text: string;
}

interface RankedEntry {
  entry: EntryRecord;
  score: number;
  passage: Passage;
}

/** `a` ranks before `b`: higher score, then entry id — so the order never depends on write history. */
function ranksBefore(score: number, id: string, other: RankedEntry): boolean {
  return score > other.score || (score === other.score && id < other.entry.entry.id);
}

/** Terms of `text` in `language`; `memo` caches the stemmer. */
function termsOf(text: string, language: Language, memo: Map<string, string | null>): string[] {
  const terms: string[] = [];
  for (const word of words(text)) {
    let term = memo.get(word);
    if (term === undefined) memo.set(word, (term = processTerm(word, language)));
    if (term) terms.push(term);
  }
  return terms;
}

function queryTermsOf(q: string, language: Language): QueryTerm[] {
  const terms = new Set<string>();
  for (const word of words(q)) {
    const term = processTerm(word, language);
    if (term) terms.add(term);
  }
  return [...terms].map((term) => ({
    term,
    prefix: term.length >= PREFIX_FROM,
    maxEdits: term.length >= FUZZY_FROM ? Math.min(MAX_EDITS, Math.round(term.length * FUZZY_SHARE)) : 0,
  }));
}

/** The distinct terms of the query's content words: what the relevance weighs. */
function contentTermsOf(q: string, language: Language): string[] {
  const terms = new Set<string>();
  for (const word of words(q)) {
    const term = isContentWord(word, language) ? processTerm(word, language) : null;
    if (term) terms.add(term);
  }
  return [...terms];
}

/** Distinct raw words whose terms are remembered per language before the memo starts over. */
const MEMO_LIMIT = 200_000;

/**
 * An account's search index. Entries are added, replaced and removed one at a time: a write changes
 * only that entry's postings, so keeping the index current costs about as much as the write itself.
 */
export class KnowledgeIndex {
  private readonly entries = new Map<string, EntryRecord>();
  /** By passage number; a hole is a number free for reuse. */
  private readonly passages: (Passage | undefined)[] = [];
  private readonly freeNumbers: number[] = [];
  private readonly arrays = new PassageArrays();
  private readonly postings = new Map<Language, LanguagePostings>();
  /** The stemmer dominates indexing time otherwise. */
  private readonly memos = new Map<Language, Map<string, string | null>>();

  /** `relevance` turns a hit's signals into its relevance (the bench's calibration replaces it to record them). */
  constructor(
    entries: Iterable<IndexedEntry> = [],
    private readonly relevanceModel: (signals: RelevanceSignals) => number = relevanceOf,
  ) {
    for (const entry of entries) this.upsert(entry);
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Adds the entry, or replaces the one with its id. */
  upsert(entry: IndexedEntry): void {
    this.remove(entry.id);
    const language: Language = isLanguage(entry.language) ? entry.language : 'en';
    const record: EntryRecord = { entry, language, passages: [] };
    this.entries.set(entry.id, record);
    const postings = this.postingsOf(language);
    const title = this.termsOf(entry.title, language);
    chunk(entry.content).forEach((passage, ordinal) => {
      const doc = this.freeNumbers.pop() ?? this.passages.length;
      this.arrays.ensure(doc + 1);
      this.passages[doc] = { entry: record, ordinal, text: passage.text };
      record.passages.push(doc);
      postings.add(doc, title, this.termsOf(passage.text, language));
    });
  }

  /** Removes the entry with this id; false when there was none. */
  remove(id: string): boolean {
    const record = this.entries.get(id);
    if (!record) return false;
    this.entries.delete(id);
    const postings = this.postingsOf(record.language);
    // The terms are derived again rather than kept per passage: as cheap as the write, and no memory.
    const title = this.termsOf(record.entry.title, record.language);
    for (const doc of record.passages) {
      postings.remove(doc, title, this.termsOf(this.passages[doc]!.text, record.language));
      this.passages[doc] = undefined;
      this.freeNumbers.push(doc);
    }
    return true;
  }

  private postingsOf(language: Language): LanguagePostings {
    let postings = this.postings.get(language);
    if (!postings) this.postings.set(language, (postings = new LanguagePostings(this.arrays)));
    return postings;
  }

  private termsOf(text: string, language: Language): string[] {
    let memo = this.memos.get(language);
    if (!memo || memo.size > MEMO_LIMIT) this.memos.set(language, (memo = new Map()));
    return termsOf(text, language, memo);
  }

  /** Ranked hits, one per entry (its best passage), at most `limit`, each with its `relevance`. */
  search(options: SearchOptions): KnowledgeHit[] {
    const languages = options.language && isLanguage(options.language) ? [options.language] : LANGUAGES;
    const matchedTerms = new Map<Language, Set<string>>();
    const weighted = new Map<Language, WeightedTerm[]>();
    try {
      for (const language of languages) {
        const postings = this.postings.get(language);
        if (!postings) continue;
        const terms = queryTermsOf(options.q, language);
        weighted.set(language, contentTermsOf(options.q, language).map((term) => ({ term, idf: postings.idf(term, MIN_PASSAGES) })));
        matchedTerms.set(language, postings.score(terms, FIELD_BOOSTS));
      }
      // One more than asked: the last hit's margin needs the entry after it.
      const top = this.bestEntries(options.limit + 1, options.tags?.length ? new Set(options.tags) : null);
      // The runner-up is the best other text: a passage stored twice is not its own competitor.
      const keys = top.map((ranked) => sameTextKey(ranked.passage.text));
      return top.slice(0, options.limit).map((ranked, i) => {
        const query = weighted.get(ranked.entry.language) ?? [];
        const runnerUp = top.find((_, j) => keys[j] !== keys[i])?.score ?? 0;
        return this.hit(ranked, matchedTerms, this.relevance(ranked, query, runnerUp));
      });
    } finally {
      this.arrays.reset();
    }
  }

  /** The entry as a hit with no lexical score or relevance, from its first passage: an entry found by meaning alone (fusion.ts). */
  entryHit(id: string): KnowledgeHit | null {
    const record = this.entries.get(id);
    const first = record?.passages[0];
    if (!record || first === undefined) return null;
    return this.hit({ entry: record, score: 0, passage: this.passages[first]! }, new Map(), 0);
  }

  /** How likely the hit answers the query (relevance.ts); `runnerUp`: the best score of another text. */
  private relevance({ entry, passage, score }: RankedEntry, query: WeightedTerm[], runnerUp: number): number {
    if (query.length === 0) return 0;
    const title = new Set(this.termsOf(entry.entry.title, entry.language));
    const text = new Set(this.termsOf(passage.text, entry.language));
    return this.relevanceModel(signalsOf(query, title, text, score > 0 ? Math.max(0, (score - runnerUp) / score) : 0));
  }

  /**
   * The best `limit` entries, each by its best passage, best first. One pass over the passages:
   * most fail the first comparison against the current floor (the score to beat once `limit`
   * entries are held), so only a few hundred ever reach the insertion.
   */
  private bestEntries(limit: number, tags: Set<string> | null): RankedEntry[] {
    const { score, matched } = this.arrays;
    const top: RankedEntry[] = [];
    let floor = 0;
    for (let doc = 0; doc < this.passages.length; doc++) {
      const quality = matched[doc]!;
      if (quality === 0) continue;
      const total = score[doc]! * quality;
      if (total < floor || total === 0) continue;
      const passage = this.passages[doc]!;
      const { entry } = passage;
      const id = entry.entry.id;
      if (top.length === limit && !ranksBefore(total, id, top[limit - 1]!)) continue;
      if (tags && !entry.entry.tags.some((t) => tags.has(t))) continue;
      const held = top.findIndex((t) => t.entry === entry);
      if (held >= 0) {
        const best = top[held]!;
        if (best.score > total || (best.score === total && best.passage.ordinal < passage.ordinal)) continue;
        top.splice(held, 1); // a better passage of the same entry
      }
      let at = top.length;
      while (at > 0 && ranksBefore(total, id, top[at - 1]!)) at--;
      top.splice(at, 0, { entry, score: total, passage });
      if (top.length > limit) top.pop();
      if (top.length === limit) floor = top[limit - 1]!.score;
    }
    return top;
  }

  private hit({ entry: { entry, language }, score, passage }: RankedEntry, matchedTerms: Map<Language, Set<string>>, relevance: number): KnowledgeHit {
    return {
      entry_id: entry.id,
      title: entry.title,
      snippet: snippet(passage.text, matchedTerms.get(language) ?? new Set(), language),
      score: Math.round(score * 1000) / 1000,
      relevance,
      tags: entry.tags,
      source: entry.source,
      url: linkOf(entry),
      heading_path: entry.heading_path ?? [],
    };
  }
}

/** What a hit links to: an imported entry's page, else a typed entry's `source` when it is an http(s) URL. */
function linkOf(entry: IndexedEntry): string | null {
  const link = entry.url ?? entry.source;
  return link && /^https?:\/\//i.test(link) && URL.canParse(link) ? link : null;
}
