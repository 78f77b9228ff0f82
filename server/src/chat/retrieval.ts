/** Knowledge retrieval for the responders: ranked hits plus each hit's full text, account-scoped. */
import type { Kysely } from 'kysely';
import type { KnowledgeHit } from '../../../src/client/types.ts';
import type { Database } from '../db/schema.ts';

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

export async function retrieve(
  db: Kysely<Database>,
  knowledge: KnowledgeSearch | undefined,
  accountId: string,
  question: string,
  options: { limit: number; tags?: string[] },
): Promise<Passage[]> {
  if (!knowledge) return [];
  const q = question.length > MAX_QUERY ? question.slice(-MAX_QUERY) : question;
  if (!/[\p{L}\p{N}]/u.test(q)) return [];
  const hits = await knowledge.search(accountId, { q, limit: options.limit, tags: options.tags?.length ? options.tags : undefined });
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
  return hits.filter((h) => content.has(h.entry_id)).map((hit) => ({ hit, content: content.get(hit.entry_id)! }));
}

export function toCitation(hit: KnowledgeHit): { entry_id: string; title: string; snippet: string; score: number; source: string | null } {
  return { entry_id: hit.entry_id, title: hit.title, snippet: hit.snippet, score: Math.round(hit.score * 1000) / 1000, source: hit.source };
}
