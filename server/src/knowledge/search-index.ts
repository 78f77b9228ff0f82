/**
 * The in-memory MiniSearch index of one account's knowledge base, built from database rows.
 *
 * Each entry is cut into passages; every passage is a document. The index has one title and one
 * content field per language, so each passage is indexed with its own language's stemmer (MiniSearch
 * tells `processTerm` the field at index time, not the document), and a query is run once per
 * language with that language's stemmer. Results are grouped per entry: an entry scores as its best
 * passage, and its snippet is cut from that passage.
 */
import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import type { KnowledgeHit } from '../../../src/client/types.ts';
import { chunk, isLanguage, LANGUAGES, processTerm, snippet, tokenize, type Language } from './text.ts';

export interface IndexedEntry {
  id: string;
  title: string;
  content: string;
  tags: string[];
  language: string;
  source: string | null;
}

interface PassageDoc {
  id: string;
  entryId: string;
  language: Language;
  title: string;
  text: string;
}

export interface SearchOptions {
  q: string;
  limit: number;
  tags?: string[];
  language?: string;
}

/** Title matches count this much more than content matches. */
const TITLE_BOOST = 2.5;

const fieldsOf = (language: Language) => [`title_${language}`, `content_${language}`];
const ALL_FIELDS = LANGUAGES.flatMap(fieldsOf);
const languageOfField = (field: string) => field.slice(field.indexOf('_') + 1) as Language;

export class KnowledgeIndex {
  private readonly miniSearch: MiniSearch<PassageDoc>;
  private readonly entries = new Map<string, IndexedEntry>();
  private readonly passages = new Map<string, PassageDoc>();

  constructor(entries: IndexedEntry[]) {
    this.miniSearch = new MiniSearch<PassageDoc>({
      fields: ALL_FIELDS,
      storeFields: [],
      tokenize,
      extractField: (doc, field) => {
        if (field === 'id') return doc.id;
        if (languageOfField(field) !== doc.language) return '';
        return field.startsWith('title_') ? doc.title : doc.text;
      },
      processTerm: (term, field) => processTerm(term, field ? languageOfField(field) : 'en'),
    });
    const docs: PassageDoc[] = [];
    for (const entry of entries) {
      this.entries.set(entry.id, entry);
      const language: Language = isLanguage(entry.language) ? entry.language : 'en';
      for (const passage of chunk(entry.content)) {
        const doc = { id: `${entry.id}@${passage.offset}`, entryId: entry.id, language, title: entry.title, text: passage.text };
        this.passages.set(doc.id, doc);
        docs.push(doc);
      }
    }
    this.miniSearch.addAll(docs);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Ranked hits, one per entry (its best passage), at most `limit`. */
  search(options: SearchOptions): KnowledgeHit[] {
    const languages = options.language && isLanguage(options.language) ? [options.language] : [...LANGUAGES];
    const tags = options.tags?.length ? new Set(options.tags) : null;
    const query: Query = {
      combineWith: 'OR',
      queries: languages.map((language) => ({
        queries: [options.q],
        fields: fieldsOf(language),
        processTerm: (term: string) => processTerm(term, language),
      })),
    };
    const results = this.miniSearch.search(query, {
      boost: Object.fromEntries(LANGUAGES.map((l) => [`title_${l}`, TITLE_BOOST])),
      // Prefix matching from 3 characters, typo tolerance (20 % of the term, at most 2 edits) from 4.
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
      maxFuzzy: 2,
      filter: (result) => {
        const doc = this.passages.get(result.id as string);
        const entry = doc && this.entries.get(doc.entryId);
        if (!doc || !entry) return false;
        if (tags && !entry.tags.some((t) => tags.has(t))) return false;
        return languages.includes(doc.language);
      },
    });
    return this.bestPerEntry(results, options.limit);
  }

  private bestPerEntry(results: SearchResult[], limit: number): KnowledgeHit[] {
    const hits: KnowledgeHit[] = [];
    const seen = new Set<string>();
    // MiniSearch sorts by score, so the first passage of an entry is its best one.
    for (const result of results) {
      const doc = this.passages.get(result.id as string)!;
      if (seen.has(doc.entryId)) continue;
      seen.add(doc.entryId);
      const entry = this.entries.get(doc.entryId)!;
      hits.push({
        entry_id: entry.id,
        title: entry.title,
        snippet: snippet(doc.text, new Set(result.terms), doc.language),
        score: Math.round(result.score * 1000) / 1000,
        tags: entry.tags,
        source: entry.source,
      });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}
