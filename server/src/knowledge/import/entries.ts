/**
 * Imported documents to knowledge entries: one entry per heading section (a very long section is
 * cut into parts), titled with the document's title and the section's headings, keyed within its
 * document by heading path and occurrence. Writing a document again compares content hashes: a
 * changed section is updated (its version increments), a vanished one deleted, an unchanged one left
 * untouched. Every write records its change for the search indexes, like a typed entry's.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { json } from '../../db/json.ts';
import { newId } from '../../ids.ts';
import { recordChange } from '../index-cache.ts';
import { removeEntry } from '../service.ts';
import { chunk } from '../text.ts';
import type { ParsedDocument } from './documents.ts';

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

function wantedEntries(document: ParsedDocument, url: string | null, target: ImportTarget): WantedEntry[] {
  const occurrences = new Map<string, number>();
  const wanted: WantedEntry[] = [];
  for (const section of document.sections) {
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
  }
  return wanted;
}

/** Writes one document's entries (create, update, delete, or leave them) in one transaction. */
export async function writeDocument(
  db: Kysely<Database>,
  target: ImportTarget,
  documentKey: string,
  url: string | null,
  document: ParsedDocument,
): Promise<EntryCounts> {
  const counts = noCounts();
  const wanted = wantedEntries(document, url, target);
  await db.transaction().execute(async (trx) => {
    const existing = await trx
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
    for (const entry of wanted) {
      const row = byKey.get(entry.key);
      byKey.delete(entry.key);
      if (row?.content_hash === entry.hash) {
        counts.unchanged++;
        continue;
      }
      let id: string;
      if (row) {
        await trx
          .updateTable('knowledge_entries')
          .set((eb) => ({ ...fields(entry), version: eb('version', '+', 1), updated_at: sql<Date>`now()` }))
          .where('id', '=', row.id)
          .execute();
        id = row.id;
        counts.updated++;
      } else {
        id = newId('kb');
        await trx
          .insertInto('knowledge_entries')
          .values({
            id,
            account_id: target.accountId,
            ...fields(entry),
            import_id: target.importId,
            import_document: documentKey,
            import_key: entry.key,
          })
          .execute();
        counts.created++;
      }
      await recordChange(trx, target.accountId, id);
    }
    for (const stale of byKey.values()) {
      if (await removeEntry(trx, target.accountId, stale.id)) counts.deleted++;
    }
  });
  return counts;
}

/** Deletes the entries of the import's documents not in `keep` (pages gone, files no longer uploaded). */
export async function removeOtherDocuments(db: Kysely<Database>, target: ImportTarget, keep: ReadonlySet<string>): Promise<number> {
  const documents = await db
    .selectFrom('knowledge_entries')
    .select('import_document')
    .distinct()
    .where('account_id', '=', target.accountId)
    .where('import_id', '=', target.importId)
    .execute();
  let deleted = 0;
  for (const { import_document: document } of documents) {
    if (document === null || keep.has(document)) continue;
    deleted += await db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('knowledge_entries')
        .select('id')
        .where('account_id', '=', target.accountId)
        .where('import_id', '=', target.importId)
        .where('import_document', '=', document)
        .execute();
      let removed = 0;
      for (const row of rows) if (await removeEntry(trx, target.accountId, row.id)) removed++;
      return removed;
    });
  }
  return deleted;
}
