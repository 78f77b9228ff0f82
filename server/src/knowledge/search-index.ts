/**
 * The in-memory search index of one account's knowledge base, built from database rows.
 *
 * Each entry is cut into passages; every passage is a document with a title and a content field,
 * indexed in its entry's language (its own stemmer and stopwords) — one inverted index per language.
 * A query is processed once per language it may match and scored with BM25+ (titles boosted,
 * prefix and typo expansions weighted down, passages matching more query terms multiplied up).
 * Results are grouped per entry: an entry scores as its best passage, its snippet is cut from that
 * passage, and only the best `limit` entries are ever materialised.
 */
import type { KnowledgeHit } from '../../../src/client/types.ts';
import { Accumulator, LanguagePostings, PostingsBuilder, type QueryTerm } from './postings.ts';
import { chunk, isLanguage, LANGUAGES, processTerm, snippet, tokenize, type Language } from './text.ts';

export interface IndexedEntry {
  id: string;
  title: string;
  content: string;
  tags: string[];
  language: string;
  source: string | null;
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

interface RankedEntry {
  entry: number;
  score: number;
  passage: number;
}

interface Passage {
  entry: number;
  language: Language;
  text: string;
}

/** Terms of `text` in `language`; `memo` caches the stemmer, which dominates build time otherwise. */
function termsOf(text: string, language: Language, memo: Map<string, string | null>): string[] {
  const terms: string[] = [];
  for (const word of tokenize(text)) {
    let term = memo.get(word);
    if (term === undefined) memo.set(word, (term = processTerm(word, language)));
    if (term) terms.push(term);
  }
  return terms;
}

function queryTermsOf(q: string, language: Language): QueryTerm[] {
  const terms = new Set<string>();
  for (const word of tokenize(q)) {
    const term = processTerm(word, language);
    if (term) terms.add(term);
  }
  return [...terms].map((term) => ({
    term,
    prefix: term.length >= PREFIX_FROM,
    maxEdits: term.length >= FUZZY_FROM ? Math.min(MAX_EDITS, Math.round(term.length * FUZZY_SHARE)) : 0,
  }));
}

export class KnowledgeIndex {
  private readonly entries: IndexedEntry[] = [];
  private readonly passages: Passage[] = [];
  private readonly postings = new Map<Language, LanguagePostings>();
  private readonly acc: Accumulator;
  /** Passage number → entry number (typed: read in the ranking loop). */
  private readonly passageEntry: Int32Array;

  constructor(entries: IndexedEntry[]) {
    const builders = new Map<Language, PostingsBuilder>();
    const memos = new Map<Language, Map<string, string | null>>();
    for (const entry of entries) {
      const language: Language = isLanguage(entry.language) ? entry.language : 'en';
      let builder = builders.get(language);
      if (!builder) builders.set(language, (builder = new PostingsBuilder()));
      let memo = memos.get(language);
      if (!memo) memos.set(language, (memo = new Map()));
      const entryNumber = this.entries.push(entry) - 1;
      const title = termsOf(entry.title, language, memo);
      for (const passage of chunk(entry.content)) {
        const doc = this.passages.push({ entry: entryNumber, language, text: passage.text }) - 1;
        builder.add(doc, title, termsOf(passage.text, language, memo));
      }
    }
    for (const [language, builder] of builders) this.postings.set(language, builder.build(this.passages.length));
    this.acc = new Accumulator(this.passages.length);
    this.passageEntry = Int32Array.from(this.passages, (p) => p.entry);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Ranked hits, one per entry (its best passage), at most `limit`. */
  search(options: SearchOptions): KnowledgeHit[] {
    const languages = options.language && isLanguage(options.language) ? [options.language] : LANGUAGES;
    const matchedTerms = new Map<Language, Set<string>>();
    try {
      for (const language of languages) {
        const postings = this.postings.get(language);
        if (!postings) continue;
        matchedTerms.set(language, postings.score(queryTermsOf(options.q, language), FIELD_BOOSTS, this.acc));
      }
      const top = this.bestEntries(options.limit, options.tags?.length ? new Set(options.tags) : null);
      return top.map((ranked) => this.hit(ranked, matchedTerms));
    } finally {
      this.acc.reset();
    }
  }

  /**
   * The best `limit` entries, each by its best passage, best first; ties keep passage order. One
   * pass over the passages: most fail the first comparison against the current floor (the score to
   * beat once `limit` entries are held), so only a few hundred ever reach the insertion.
   */
  private bestEntries(limit: number, tags: Set<string> | null): RankedEntry[] {
    const { score, matched } = this.acc;
    const top: RankedEntry[] = [];
    let floor = 0;
    for (let doc = 0; doc < matched.length; doc++) {
      const quality = matched[doc]!;
      if (quality === 0) continue;
      const total = score[doc]! * quality;
      if (total <= floor) continue;
      const entry = this.passageEntry[doc]!;
      if (tags && !this.entries[entry]!.tags.some((t) => tags.has(t))) continue;
      const held = top.findIndex((t) => t.entry === entry);
      if (held >= 0) {
        if (top[held]!.score >= total) continue;
        top.splice(held, 1); // a better passage of the same entry
      }
      let at = top.length;
      while (at > 0 && total > top[at - 1]!.score) at--;
      top.splice(at, 0, { entry, score: total, passage: doc });
      if (top.length > limit) top.pop();
      if (top.length === limit) floor = top[limit - 1]!.score;
    }
    return top;
  }

  private hit({ entry: entryNumber, score, passage: passageNumber }: RankedEntry, matchedTerms: Map<Language, Set<string>>): KnowledgeHit {
    const entry = this.entries[entryNumber]!;
    const passage = this.passages[passageNumber]!;
    return {
      entry_id: entry.id,
      title: entry.title,
      snippet: snippet(passage.text, matchedTerms.get(passage.language) ?? new Set(), passage.language),
      score: Math.round(score * 1000) / 1000,
      tags: entry.tags,
      source: entry.source,
    };
  }
}
