/**
 * Knowledge entries' vectors in PostgreSQL / PGlite with pgvector (migration 021): which entries
 * need embedding, storing their vectors, and an account's entries nearest to a question.
 * Every read is scoped to one account, and compares only vectors of one model and length.
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

const MIGRATION = new URL('../db/migrations/021_knowledge_embeddings.sql', import.meta.url);

/** An entry whose vector is missing or older than the entry (or of another model). */
export interface StaleEntry {
  id: string;
  accountId: string;
  version: number;
  text: string;
}

export interface NearestOptions {
  model: string;
  vector: number[];
  limit: number;
  tags?: string[];
  language?: string;
}

/** pgvector's text form, `[0.1,0.2]`. */
function literal(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

/** What an entry is embedded as: its title, then its text. */
export function entryText(title: string, content: string): string {
  return `${title}\n\n${content}`;
}

/**
 * Whether the vector table exists; when it does not, the migration runs again first (pgvector may
 * have been installed since). False when the server still has no pgvector: search stays lexical.
 */
export async function ensureVectorTable(db: Kysely<Database>): Promise<boolean> {
  const exists = async () => (await sql<{ t: string | null }>`select to_regclass('knowledge_embeddings')::text as t`.execute(db)).rows[0]?.t != null;
  if (await exists()) return true;
  await sql.raw(readFileSync(MIGRATION, 'utf8')).execute(db);
  return exists();
}

export class EmbeddingStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Up to `limit` entries to embed for `model`, oldest change first, leaving out `skip`
   * (`${id}:${version}` of texts the endpoint refused: a new version is tried again).
   */
  async stale(model: string, limit: number, skip: readonly string[]): Promise<StaleEntry[]> {
    const { rows } = await sql<{ id: string; account_id: string; version: number; title: string; content: string }>`
      select e.id, e.account_id, e.version, e.title, e.content
      from knowledge_entries e
      left join knowledge_embeddings v on v.entry_id = e.id and v.model = ${model} and v.version = e.version
      where v.entry_id is null ${skip.length ? sql`and (e.id || ':' || e.version) <> all(${[...skip]}::text[])` : sql``}
      order by e.updated_at, e.id
      limit ${limit}`.execute(this.db);
    return rows.map((row) => ({ id: row.id, accountId: row.account_id, version: row.version, text: entryText(row.title, row.content) }));
  }

  /** Stores the vectors; an entry deleted or changed meanwhile keeps no vector of its old text. */
  async save(model: string, entries: readonly StaleEntry[], vectors: readonly number[][]): Promise<void> {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const vector = vectors[i]!;
      await sql`
        insert into knowledge_embeddings (entry_id, account_id, version, model, dimensions, embedding)
        select e.id, e.account_id, e.version, ${model}, ${vector.length}, ${literal(vector)}::vector
        from knowledge_entries e where e.id = ${entry.id} and e.version = ${entry.version}
        on conflict (entry_id) do update set version = excluded.version, model = excluded.model,
          dimensions = excluded.dimensions, embedding = excluded.embedding, embedded_at = now()`.execute(this.db);
    }
  }

  /** The account's entries nearest to `vector` (cosine similarity, best first), current vectors only. */
  async nearest(accountId: string, options: NearestOptions): Promise<{ entryId: string; similarity: number }[]> {
    const query = literal(options.vector);
    const { rows } = await sql<{ entry_id: string; similarity: number }>`
      select v.entry_id, 1 - (v.embedding <=> ${query}::vector) as similarity
      from knowledge_embeddings v
      join knowledge_entries e on e.id = v.entry_id and e.version = v.version
      where v.account_id = ${accountId} and e.account_id = ${accountId}
        and v.model = ${options.model} and v.dimensions = ${options.vector.length}
        ${options.tags?.length ? sql`and e.tags ?| ${options.tags}::text[]` : sql``}
        ${options.language ? sql`and e.language = ${options.language}` : sql``}
      order by v.embedding <=> ${query}::vector, v.entry_id
      limit ${options.limit}`.execute(this.db);
    return rows.map((row) => ({ entryId: row.entry_id, similarity: Number(row.similarity) }));
  }
}
