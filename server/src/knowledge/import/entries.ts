/**
 * Imported documents to knowledge entries: one entry per heading section (a very long section is
 * cut into parts), titled with the document's title and the section's headings, keyed within its
 * document by heading path and occurrence. Writing a document again compares content hashes: a
 * changed section is updated (its version increments), a vanished one deleted, an unchanged one left
 * untouched. Every write records its change for the search indexes, like a typed entry's. Writes go
 * in bounded chunks (`WRITE_CHUNK`), and stop at the account's entry quota.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { json } from '../../db/json.ts';
import { newId } from '../../ids.ts';
import { recordChanges, sliced } from '../index-cache.ts';
import { removeEntries } from '../service.ts';
import { chunk } from '../text.ts';
import type { ParsedDocument } from './documents.ts';
import { ImportIssueError } from './issue.ts';

export interface ImportTarget {
  accountId: string;
  importId: string;
  tags: string[];
  language: string;
}

export interface EntryCounts {
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
}

export const noCounts = (): EntryCounts => ({ created: 0, updated: 0, deleted: 0, unchanged: 0 });

/** An entry's content is at most 100,000 characters; longer sections are cut into parts below that. */
const MAX_CONTENT = 100_000;
const PART_CHARS = 50_000;
const MAX_TITLE = 200;

interface WantedEntry {
  key: string;
  title: string;
  content: string;
  headingPath: string[];
  hash: string;
}

function titleOf(documentTitle: string, headingPath: string[], part: number, parts: number): string {
  const path = headingPath[0] === documentTitle ? headingPath.slice(1) : headingPath;
  let title = [documentTitle, ...path].join(' › ');
  if (parts > 1) title += ` (${part + 1}/${parts})`;
  return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title;
}

/** The document's entries with their content hashes, computed in slices that leave the event loop free in between. */
async function wantedEntries(document: ParsedDocument, url: string | null, target: ImportTarget): Promise<WantedEntry[]> {
  const occurrences = new Map<string, number>();
  const wanted: WantedEntry[] = [];
  await sliced(document.sections, (section) => {
    const pathKey = section.headingPath.join('\u001f');
    const occurrence = occurrences.get(pathKey) ?? 0;
    occurrences.set(pathKey, occurrence + 1);
    const parts = section.text.length > MAX_CONTENT ? chunk(section.text, PART_CHARS).map((p) => p.text) : [section.text];
    parts.forEach((content, part) => {
      const title = titleOf(document.title, section.headingPath, part, parts.length);
      const hash = createHash('sha256')
        .update(JSON.stringify([title, content, url, section.headingPath, target.tags, target.language]))
        .digest('hex');
      wanted.push({ key: `${pathKey}\u001e${occurrence}\u001e${part}`, title, content, headingPath: section.headingPath, hash });
    });
  });
  return wanted;
}

/** How a job writes: its deadline, the account's entry quota, and the counts it adds to. */
export interface WriteOptions {
  signal?: AbortSignal;
  maxAccountEntries: number;
  counts: EntryCounts;
}

/**
 * Rows per statement and per transaction. A document's entries are written a chunk at a time, each
 * chunk in its own transaction followed by a turn of the event loop: the connection (PGlite's only
 * one) and the event loop serve other requests between chunks, however large the document.
 */
export const WRITE_CHUNK = 50;

function chunksOf<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += WRITE_CHUNK) chunks.push(items.slice(i, i + WRITE_CHUNK));
  return chunks;
}

/** One chunk's transaction, unless the job's deadline has passed; then a turn of the event loop. */
async function inChunk<T>(db: Kysely<Database>, signal: AbortSignal | undefined, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  const result = await db.transaction().execute(work);
  await new Promise((resolve) => setImmediate(resolve));
  return result;
}

/**
 * Writes one document's entries: new ones inserted (one statement per chunk), changed ones updated,
 * vanished ones deleted, unchanged ones left alone; in chunks (`WRITE_CHUNK`), so a document stopped
 * part way (deadline, quota) is completed by the next sync, which compares content hashes.
 */
export async function writeDocument(
  db: Kysely<Database>,
  target: ImportTarget,
  documentKey: string,
  url: string | null,
  document: ParsedDocument,
  options: WriteOptions,
): Promise<void> {
  const { counts, signal } = options;
  const existing = await db
    .selectFrom('knowledge_entries')
    .select(['id', 'import_key', 'content_hash'])
    .where('account_id', '=', target.accountId)
    .where('import_id', '=', target.importId)
    .where('import_document', '=', documentKey)
    .execute();
  const byKey = new Map(existing.map((row) => [row.import_key, row]));
  const fields = (entry: WantedEntry) => ({
    title: entry.title,
    content: entry.content,
    tags: json(target.tags),
    language: target.language,
    source: url ?? documentKey,
    url,
    heading_path: json(entry.headingPath),
    content_hash: entry.hash,
  });
  const created: WantedEntry[] = [];
  const changed: { id: string; entry: WantedEntry }[] = [];
  for (const entry of await wantedEntries(document, url, target)) {
    const row = byKey.get(entry.key);
    byKey.delete(entry.key);
    if (!row) created.push(entry);
    else if (row.content_hash === entry.hash) counts.unchanged++;
    else changed.push({ id: row.id, entry });
  }
  for (const batch of chunksOf(created)) {
    await inChunk(db, signal, async (trx) => {
      await assertQuota(trx, target.accountId, batch.length, options.maxAccountEntries);
      const rows = batch.map((entry) => ({
        id: newId('kb'),
        account_id: target.accountId,
        ...fields(entry),
        import_id: target.importId,
        import_document: documentKey,
        import_key: entry.key,
      }));
      await trx.insertInto('knowledge_entries').values(rows).execute();
      await recordChanges(trx, target.accountId, rows.map((row) => row.id));
    });
    counts.created += batch.length;
  }
  for (const batch of chunksOf(changed)) {
    await inChunk(db, signal, async (trx) => {
      for (const { id, entry } of batch) {
        await trx
          .updateTable('knowledge_entries')
          .set((eb) => ({ ...fields(entry), version: eb('version', '+', 1), updated_at: sql<Date>`now()` }))
          .where('id', '=', id)
          .execute();
      }
      await recordChanges(trx, target.accountId, batch.map((c) => c.id));
    });
    counts.updated += batch.length;
  }
  counts.deleted += await removeInChunks(db, target.accountId, [...byKey.values()].map((row) => row.id), signal);
}

/** Refuses a chunk that would take the account past its entries (imports fill up to it, no further). */
async function assertQuota(trx: Transaction<Database>, accountId: string, adding: number, max: number): Promise<void> {
  const { n } = await trx
    .selectFrom('knowledge_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  if (Number(n) + adding <= max) return;
  throw new ImportIssueError('knowledge_quota_exceeded', `The account holds ${n} knowledge entries; imports may fill it up to ${max}. Delete entries or imports first.`);
}

/** Deletes entries (as `DELETE /v1/knowledge/{id}` does), a chunk per transaction; how many existed. */
export async function removeInChunks(db: Kysely<Database>, accountId: string, ids: readonly string[], signal?: AbortSignal): Promise<number> {
  let removed = 0;
  for (const batch of chunksOf(ids)) removed += await inChunk(db, signal, (trx) => removeEntries(trx, accountId, batch));
  return removed;
}

/** Deletes the entries of the import's documents not in `keep` (pages gone, files no longer uploaded). */
export async function removeOtherDocuments(db: Kysely<Database>, target: ImportTarget, keep: ReadonlySet<string>, signal?: AbortSignal): Promise<number> {
  const rows = await db
    .selectFrom('knowledge_entries')
    .select(['id', 'import_document'])
    .where('account_id', '=', target.accountId)
    .where('import_id', '=', target.importId)
    .execute();
  const gone = rows.filter((row) => row.import_document !== null && !keep.has(row.import_document)).map((row) => row.id);
  return removeInChunks(db, target.accountId, gone, signal);
}
