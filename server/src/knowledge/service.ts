/**
 * The knowledge base: entries are rows (the source of truth); search runs on an in-memory index per
 * account (`IndexCache`). Every write records itself (`recordChange`: the account's `kb_revision`
 * bumped and the entry logged) in its own transaction, so every process's index applies it before
 * its next search — only that entry, never a rebuild — across restarts and processes.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  CreateKnowledgeRequest,
  Deletion,
  KnowledgeEntry,
  KnowledgeHit,
  Page,
  UpdateKnowledgeRequest,
} from '../../../src/client/types.ts';
import { NOTHING_REMOVED, recordDeletion } from '../analytics/deletions.ts';
import { forgetStoredAnswers } from '../conversations/purge.ts';
import type { Database, KnowledgeEntriesTable } from '../db/schema.ts';
import { iso, json } from '../db/json.ts';
import { notFound } from '../http/errors.ts';
import { createdKey, newestFirstPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';
import type { SemanticKnowledge } from '../embeddings/semantic.ts';
import { fuse } from './fusion.ts';
import { IndexCache, recordChange, recordChanges } from './index-cache.ts';
import type { SearchOptions } from './search-index.ts';

/** What `search` accepts; `limit` 1–50. */
export type KnowledgeSearchOptions = SearchOptions;

export function toEntry(row: Selectable<KnowledgeEntriesTable>): KnowledgeEntry {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    tags: row.tags,
    language: row.language,
    source: row.source,
    url: row.url,
    heading_path: row.heading_path ?? [],
    import_id: row.import_id,
    version: row.version,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export class KnowledgeService {
  /** Each searched account's index (public for tests: `indexes.builds`). */
  readonly indexes: IndexCache;

  /** `semantic`: embedding similarity joins the ranking (fusion.ts); null: lexical only. */
  constructor(
    private readonly db: Kysely<Database>,
    readonly semantic: SemanticKnowledge | null = null,
  ) {
    this.indexes = new IndexCache(db);
  }

  async create(accountId: string, input: CreateKnowledgeRequest): Promise<KnowledgeEntry> {
    return this.embedAfter(this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('knowledge_entries')
        .values({
          id: newId('kb'),
          account_id: accountId,
          title: input.title,
          content: input.content,
          tags: json(unique(input.tags ?? [])),
          language: input.language ?? 'en',
          source: input.source ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordChange(trx, accountId, row.id);
      return toEntry(row);
    }));
  }

  async get(accountId: string, entryId: string): Promise<KnowledgeEntry> {
    const row = await this.db
      .selectFrom('knowledge_entries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', entryId)
      .executeTakeFirst();
    if (!row) throw notFound('entry_id', 'knowledge entry');
    return toEntry(row);
  }

  /** Newest first (like every list of the API), keyset-paginated on (created_at, id). */
  async list(accountId: string, query: { limit: number; cursor?: string }): Promise<Page<KnowledgeEntry>> {
    return newestFirstPage(
      this.db.selectFrom('knowledge_entries').selectAll().select(createdKey).where('account_id', '=', accountId),
      query,
      toEntry,
    );
  }

  /** A partial update; `version` increments even when a field is set to its current value. */
  async update(accountId: string, entryId: string, input: UpdateKnowledgeRequest): Promise<KnowledgeEntry> {
    return this.embedAfter(this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('knowledge_entries')
        .set((eb) => ({
          ...(input.title !== undefined && { title: input.title }),
          ...(input.content !== undefined && { content: input.content }),
          ...(input.tags !== undefined && { tags: json(unique(input.tags)) }),
          ...(input.language !== undefined && { language: input.language }),
          ...(input.source !== undefined && { source: input.source }),
          version: eb('version', '+', 1),
          updated_at: sql<Date>`now()`,
        }))
        .where('account_id', '=', accountId)
        .where('id', '=', entryId)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('entry_id', 'knowledge entry');
      await recordChange(trx, accountId, row.id);
      return toEntry(row);
    }));
  }

  /** Once the write committed, its entry is embedded in the background (when embeddings are on). */
  private async embedAfter<T>(write: Promise<T>): Promise<T> {
    const result = await write;
    this.semantic?.kick();
    return result;
  }

  /**
   * Deletes the entry and counts the deletion. The change recorded in the same transaction makes
   * every process drop it from its search index before its next search, so it is never found again.
   * Messages that cited it keep their citation: a transcript records what was answered.
   */
  async delete(accountId: string, entryId: string): Promise<Deletion> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await removeEntry(trx, accountId, entryId))) throw notFound('entry_id', 'knowledge entry');
      return { id: entryId, deleted: true, ...NOTHING_REMOVED };
    });
  }

  /**
   * Ranked hits, one per entry (its best ~800-character passage), typo-tolerant, prefix-matching
   * and stemmed per language, titles boosted. `score` is the BM25+ score of the best passage
   * (higher is better, unbounded; one exact content term in a short passage scores a few points).
   * With embeddings, entries close in meaning join in and add to it (fusion.ts).
   */
  async search(accountId: string, options: KnowledgeSearchOptions): Promise<KnowledgeHit[]> {
    const index = await this.indexes.current(accountId);
    const lexical = index.search(options);
    if (this.semantic?.status !== 'ready') return lexical;
    const similar = await this.semantic.similar(accountId, options);
    return fuse(lexical, similar, (id) => index.entryHit(id), options.limit, this.semantic.minSimilarity);
  }
}

/**
 * Deletes one entry inside `trx` as `delete` does (stored answers forgotten, the change recorded for
 * every process's index, the deletion counted); false when the account has no such entry.
 */
export async function removeEntry(trx: Transaction<Database>, accountId: string, entryId: string): Promise<boolean> {
  return (await removeEntries(trx, accountId, [entryId])) > 0;
}

/**
 * `removeEntry` for several entries, set-based (a statement for all of them, not one each): imports
 * remove the entries of vanished pages with it, a chunk per transaction. Returns how many existed.
 */
export async function removeEntries(trx: Transaction<Database>, accountId: string, entryIds: readonly string[]): Promise<number> {
  if (entryIds.length === 0) return 0;
  const deleted = await trx
    .deleteFrom('knowledge_entries')
    .where('account_id', '=', accountId)
    .where('id', 'in', entryIds)
    .returning('id')
    .execute();
  const ids = deleted.map((row) => row.id);
  if (ids.length === 0) return 0;
  await forgetStoredAnswers(trx, accountId, ids);
  await recordChanges(trx, accountId, ids);
  for (let i = 0; i < ids.length; i++) await recordDeletion(trx, accountId, 'knowledge_entry', NOTHING_REMOVED);
  return ids.length;
}

export function unique(values: string[]): string[] {
  return [...new Set(values)];
}
