/**
 * The knowledge base: entries are rows (the source of truth); search runs on an in-memory
 * MiniSearch index per account that is rebuilt lazily whenever `accounts.kb_revision` moved on.
 * Every write bumps that revision in the same transaction, so an index can never be older than the
 * revision it claims — across restarts and across processes sharing a database.
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
import { KnowledgeIndex, type SearchOptions } from './search-index.ts';

/** What `search` accepts; `limit` 1–50. */
export type KnowledgeSearchOptions = SearchOptions;

/** Accounts whose index is kept in memory at once; the least recently searched is dropped first. */
const MAX_CACHED_INDEXES = 64;

interface CachedIndex {
  revision: string;
  index: Promise<KnowledgeIndex>;
}

function toEntry(row: Selectable<KnowledgeEntriesTable>): KnowledgeEntry {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    tags: row.tags,
    language: row.language,
    source: row.source,
    version: row.version,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export class KnowledgeService {
  private readonly indexes = new Map<string, CachedIndex>();

  constructor(private readonly db: Kysely<Database>) {}

  async create(accountId: string, input: CreateKnowledgeRequest): Promise<KnowledgeEntry> {
    return this.db.transaction().execute(async (trx) => {
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
      await bumpRevision(trx, accountId);
      return toEntry(row);
    });
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
    return this.db.transaction().execute(async (trx) => {
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
      await bumpRevision(trx, accountId);
      return toEntry(row);
    });
  }

  /**
   * Deletes the entry and counts the deletion. The revision bump in the same transaction makes every
   * process rebuild its search index before its next search, so the entry is never found again.
   * Messages that cited it keep their citation: a transcript records what was answered.
   */
  async delete(accountId: string, entryId: string): Promise<Deletion> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('knowledge_entries')
        .where('account_id', '=', accountId)
        .where('id', '=', entryId)
        .executeTakeFirst();
      if (deleted.numDeletedRows === 0n) throw notFound('entry_id', 'knowledge entry');
      await forgetStoredAnswers(trx, accountId, entryId);
      await bumpRevision(trx, accountId);
      await recordDeletion(trx, accountId, 'knowledge_entry', NOTHING_REMOVED);
      return { id: entryId, deleted: true, ...NOTHING_REMOVED };
    });
  }

  /**
   * Ranked hits, one per entry (its best ~800-character passage), typo-tolerant, prefix-matching
   * and stemmed per language, titles boosted. `score` is the BM25+ score of the best passage
   * (higher is better, unbounded; one exact content term in a short passage scores a few points).
   */
  async search(accountId: string, options: KnowledgeSearchOptions): Promise<KnowledgeHit[]> {
    const index = await this.indexFor(accountId);
    return index.search(options);
  }

  private async indexFor(accountId: string): Promise<KnowledgeIndex> {
    const revision = await this.revisionOf(accountId);
    const cached = this.indexes.get(accountId);
    this.indexes.delete(accountId); // re-inserted below: Map order doubles as recency order
    if (cached && cached.revision === revision) {
      this.indexes.set(accountId, cached);
      return cached.index;
    }
    const build = this.build(accountId);
    this.indexes.set(accountId, { revision, index: build });
    build.catch(() => {
      if (this.indexes.get(accountId)?.index === build) this.indexes.delete(accountId);
    });
    while (this.indexes.size > MAX_CACHED_INDEXES) this.indexes.delete(this.indexes.keys().next().value!);
    return build;
  }

  // The revision is read *before* the rows: if a write lands in between, the index holds newer rows
  // than its label says and is merely rebuilt once more — never the stale direction.
  private async revisionOf(accountId: string): Promise<string> {
    const row = await this.db.selectFrom('accounts').select('kb_revision').where('id', '=', accountId).executeTakeFirst();
    return String(row?.kb_revision ?? '0');
  }

  private async build(accountId: string): Promise<KnowledgeIndex> {
    const rows = await this.db
      .selectFrom('knowledge_entries')
      .select(['id', 'title', 'content', 'tags', 'language', 'source'])
      .where('account_id', '=', accountId)
      .execute();
    return new KnowledgeIndex(rows);
  }
}

async function bumpRevision(trx: Transaction<Database>, accountId: string): Promise<void> {
  await trx
    .updateTable('accounts')
    .set({ kb_revision: sql`kb_revision + 1` })
    .where('id', '=', accountId)
    .execute();
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
