/**
 * Knowledge retrieval for the responders: ranked hits plus each hit's full text, account-scoped
 * and limited to the knowledge scope of whoever answers (agent, bot, or the caller).
 */
import type { Kysely } from 'kysely';
import type { Citation, KnowledgeHit, KnowledgeScope } from '../../../../src/client/types.ts';
import type { Database } from '../../db/schema.ts';
import { DEFAULT_MIN_RELEVANCE } from '../../knowledge/relevance.ts';
import { sameTextKey } from '../../text/words.ts';

/** What chat needs from the knowledge service (`deps.knowledge`). */
export interface KnowledgeSearch {
  search(accountId: string, options: { q: string; limit?: number; tags?: string[]; language?: string }): Promise<KnowledgeHit[]>;
}

export interface Passage {
  hit: KnowledgeHit;
  /** The entry's whole content (sentences are chosen from it, not from the short snippet). */
  content: string;
}

/** Queries longer than the search accepts keep their end: the newest words matter most. */
const MAX_QUERY = 500;
/** Hits asked for per passage wanted, so that duplicates left out still leave `limit` passages. */
const OVERFETCH = 3;
/** The search's own ceiling on `limit`. */
const MAX_HITS = 50;

/**
 * The passages that may ground an answer: at most `limit`, best first, one per distinct content,
 * each at least as relevant as the scope's `min_relevance` — a question the knowledge does not
 * answer gets none, however well its words match. `scope` null: none at all; `{tags: []}`: every
 * entry of the account.
 */
export async function retrieve(
  db: Kysely<Database>,
  knowledge: KnowledgeSearch | undefined,
  accountId: string,
  question: string,
  options: { limit: number; scope: KnowledgeScope | null },
): Promise<Passage[]> {
  if (!knowledge || !options.scope) return [];
  const q = question.length > MAX_QUERY ? question.slice(-MAX_QUERY) : question;
  if (!/[\p{L}\p{N}]/u.test(q)) return [];
  const tags = options.scope.tags?.length ? options.scope.tags : undefined;
  const gate = options.scope.min_relevance ?? DEFAULT_MIN_RELEVANCE;
  const found = await knowledge.search(accountId, { q, limit: Math.min(MAX_HITS, options.limit * OVERFETCH), tags });
  const hits = found.filter((hit) => hit.relevance >= gate);
  if (hits.length === 0) return [];
  const rows = await db
    .selectFrom('knowledge_entries')
    .select(['id', 'content'])
    .where('account_id', '=', accountId)
    .where(
      'id',
      'in',
      hits.map((h) => h.entry_id),
    )
    .execute();
  const content = new Map(rows.map((r) => [r.id, r.content]));
  // The same passage stored twice (an import run twice, a copied entry) would be quoted and cited
  // twice: keep only its best-ranked copy.
  const seen = new Set<string>();
  const passages: Passage[] = [];
  for (const hit of hits) {
    const text = content.get(hit.entry_id);
    if (text === undefined) continue;
    const key = sameTextKey(text);
    if (seen.has(key)) continue;
    seen.add(key);
    passages.push({ hit, content: text });
    if (passages.length === options.limit) break;
  }
  return passages;
}

/** A stored citation: the hit plus where it links (`url`) and its headings, for the widget to show as a source. */
export function toCitation(hit: KnowledgeHit): Citation {
  return {
    entry_id: hit.entry_id,
    title: hit.title,
    snippet: hit.snippet,
    score: Math.round(hit.score * 1000) / 1000,
    source: hit.source,
    url: hit.url,
    heading_path: hit.heading_path,
  };
}
