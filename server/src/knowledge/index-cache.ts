/**
 * The search index of each account this process has searched, kept exactly as fresh as the
 * database, across processes sharing it.
 *
 * Every knowledge write bumps `accounts.kb_revision` and logs `(revision, entry_id)` in
 * `knowledge_changes`, in the write's own transaction. A search reads the revision (one
 * primary-key select); an index at an older revision first applies the changes after its own —
 * re-reading only the changed entries, each replaced or removed in the index — so a write
 * acknowledged by any process is searched by every process at once, at the cost of that entry.
 * Only an index this process does not hold yet, or one whose missing revisions are not all in the
 * log (pruned, or written by something that bumped the revision without logging), is built from
 * all the rows, in pages and slices that leave the event loop free in between.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { SharedRead } from '../db/batcher.ts';
import type { Database } from '../db/schema.ts';
import { KnowledgeIndex, type IndexedEntry } from './search-index.ts';

/** Accounts whose index is kept in memory at once; the least recently searched is dropped first. */
const MAX_CACHED_INDEXES = 64;
/** Entries read per statement while building, changes per statement while catching up (a PGlite statement blocks the event loop while it runs). */
const BUILD_PAGE = 250;
const CHANGES_PAGE = 500;
/** Indexing work between two yields to the event loop. */
const SLICE_MS = 8;
/** Changes kept in the log per account; an index further behind is rebuilt. */
const KEPT_CHANGES = 10_000n;
/** Pruning runs on every this many-th write of an account. */
const PRUNE_EVERY = 1_000n;

interface Slot {
  index: KnowledgeIndex | null;
  /** Every change up to this revision is in `index`. */
  revision: bigint;
  /** A build or catch-up in progress: searches wait for it instead of reading a half-updated index. */
  refreshing: Promise<void> | null;
}

const ENTRY_COLUMNS = ['id', 'title', 'content', 'tags', 'language', 'source', 'url', 'heading_path'] as const;

/** Just the indexed fields (a row may carry more). */
function indexed({ id, title, content, tags, language, source, url, heading_path }: IndexedEntry): IndexedEntry {
  return { id, title, content, tags, language, source, url, heading_path: heading_path ?? [] };
}

/** Runs `work` over `items`, yielding to the event loop whenever a slice has run `SLICE_MS`. */
export async function sliced<T>(items: Iterable<T>, work: (item: T) => void, sliceMs = SLICE_MS): Promise<void> {
  let started = performance.now();
  for (const item of items) {
    work(item);
    if (performance.now() - started >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    }
  }
}

export class IndexCache {
  private readonly slots = new Map<string, Slot>();
  /** Whole-index builds so far (a write never causes one): for tests and diagnostics. */
  builds = 0;
  /**
   * Every search and grounded chat turn reads its account's revision: concurrent reads of one
   * account share one select, each sent after all of its callers asked (db/batcher.ts), so each
   * still sees every write committed before it was called.
   */
  private readonly revisions = new SharedRead(async (accountId) => {
    const row = await this.db.selectFrom('accounts').select('kb_revision').where('id', '=', accountId).executeTakeFirst();
    return BigInt(row?.kb_revision ?? '0');
  });

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sliceMs = SLICE_MS,
  ) {}

  /** The account's index, holding every write committed before this call. */
  async current(accountId: string): Promise<KnowledgeIndex> {
    const wanted = await this.revisionOf(accountId);
    for (;;) {
      const slot = this.slot(accountId);
      if (slot.refreshing) {
        await slot.refreshing.catch(() => {}); // its starter reports the error; this caller tries again
        continue;
      }
      if (slot.index && slot.revision >= wanted) return slot.index;
      const refresh = this.refresh(accountId, slot, wanted);
      slot.refreshing = refresh;
      try {
        await refresh;
      } finally {
        slot.refreshing = null;
      }
    }
  }

  private slot(accountId: string): Slot {
    let slot = this.slots.get(accountId);
    this.slots.delete(accountId); // re-inserted: Map order doubles as recency order
    slot ??= { index: null, revision: -1n, refreshing: null };
    this.slots.set(accountId, slot);
    while (this.slots.size > MAX_CACHED_INDEXES) this.slots.delete(this.slots.keys().next().value!);
    return slot;
  }

  private async refresh(accountId: string, slot: Slot, wanted: bigint): Promise<void> {
    if (slot.index && (await this.catchUp(accountId, slot, wanted))) return;
    // Searches wait for this build, so the old index is of no more use: let it go now, not after
    // the new one is complete (at 100k entries each holds ~200 MB, and GC work grows with the heap).
    slot.index = null;
    // Read before the rows: a write landing during the build has a later revision, so the first
    // search after it catches up on it (rows already read in its new state are simply replaced).
    const revision = await this.revisionOf(accountId);
    const index = new KnowledgeIndex();
    let after: { key: string; id: string } | null = null;
    for (;;) {
      const from = after;
      const rows = await this.db.transaction().execute(async (trx) => {
        // Each page must walk the (account_id, created_at, id) index. Right after a bulk load the
        // planner's row estimate is stale, and it picks a bitmap scan plus a sort of ALL the
        // account's rows per page instead (measured: 60 ms against 2 ms for a page at 20k rows).
        await sql`set local enable_sort = off`.execute(trx);
        let query = trx
          .selectFrom('knowledge_entries')
          .select([...ENTRY_COLUMNS, sql<string>`created_at::text`.as('key')])
          .where('account_id', '=', accountId);
        if (from) query = query.where(sql<boolean>`(created_at, id) > (${from.key}::timestamptz, ${from.id})`);
        return query.orderBy('created_at').orderBy('id').limit(BUILD_PAGE).execute();
      });
      await sliced(rows, (row) => index.upsert(indexed(row)), this.sliceMs);
      if (rows.length < BUILD_PAGE) break;
      // A turn of the event loop between pages too: `sliced` times only the indexing, and on PGlite
      // each page's statement also runs on this thread, so a fast machine could otherwise go through
      // every page without yielding once (seen: 2 turns in a 2 s build of 10k entries).
      await new Promise((resolve) => setImmediate(resolve));
      after = { key: rows.at(-1)!.key, id: rows.at(-1)!.id };
    }
    this.builds++;
    slot.index = index;
    slot.revision = revision;
  }

  /**
   * Applies the logged changes after `slot.revision`; false (nothing applied) when they do not
   * reach `wanted` without a gap, and the index must be rebuilt instead. Each page is one
   * statement, so it reads each changed entry as it is at that moment: at the change's revision
   * or later, never earlier. Revisions commit in order (the bump locks the account's row), so a
   * gap is a change that was never logged, not one still in flight.
   */
  private async catchUp(accountId: string, slot: Slot, wanted: bigint): Promise<boolean> {
    const index = slot.index!;
    let revision = slot.revision;
    const pages: { id: string; row: IndexedEntry | null }[][] = [];
    for (;;) {
      const rows = await this.db
        .selectFrom('knowledge_changes as c')
        .leftJoin('knowledge_entries as e', (join) => join.onRef('e.id', '=', 'c.entry_id').onRef('e.account_id', '=', 'c.account_id'))
        .select(['c.revision', 'c.entry_id', 'e.id', 'e.title', 'e.content', 'e.tags', 'e.language', 'e.source', 'e.url', 'e.heading_path'])
        .where('c.account_id', '=', accountId)
        .where('c.revision', '>', String(revision))
        .orderBy('c.revision')
        .limit(CHANGES_PAGE)
        .execute();
      const page: { id: string; row: IndexedEntry | null }[] = [];
      for (const row of rows) {
        if (BigInt(row.revision) !== revision + 1n) break; // a gap
        revision++;
        page.push({ id: row.entry_id, row: row.id === null ? null : indexed(row as IndexedEntry) });
      }
      pages.push(page);
      if (page.length < CHANGES_PAGE) break;
    }
    if (revision < wanted) return false;
    // Applied only once the whole log is known to be usable: a rebuild never starts from a half-updated index.
    for (const page of pages) await sliced(page, ({ id, row }) => (row ? index.upsert(row) : index.remove(id)), this.sliceMs);
    slot.revision = revision;
    return true;
  }

  private revisionOf(accountId: string): Promise<bigint> {
    return this.revisions.get(accountId);
  }
}

/**
 * Records a knowledge write in its transaction: bumps the account's revision (which also orders
 * the account's writes: the row lock is held to commit) and logs which entry changed.
 */
export async function recordChange(trx: Transaction<Database>, accountId: string, entryId: string): Promise<void> {
  await recordChanges(trx, accountId, [entryId]);
}

/** `recordChange` for several entries written in one transaction: one revision each, in two statements. */
export async function recordChanges(trx: Transaction<Database>, accountId: string, entryIds: readonly string[]): Promise<void> {
  if (entryIds.length === 0) return;
  const { kb_revision } = await trx
    .updateTable('accounts')
    .set({ kb_revision: sql`kb_revision + ${entryIds.length}` })
    .where('id', '=', accountId)
    .returning('kb_revision')
    .executeTakeFirstOrThrow();
  const last = BigInt(kb_revision);
  const first = last - BigInt(entryIds.length) + 1n;
  await trx
    .insertInto('knowledge_changes')
    .values(entryIds.map((entryId, i) => ({ account_id: accountId, revision: String(first + BigInt(i)), entry_id: entryId })))
    .execute();
  // Pruning runs when the revisions written cross a multiple of PRUNE_EVERY.
  if (last / PRUNE_EVERY !== (first - 1n) / PRUNE_EVERY) {
    await trx
      .deleteFrom('knowledge_changes')
      .where('account_id', '=', accountId)
      .where('revision', '<=', String(last - KEPT_CHANGES))
      .execute();
  }
}
