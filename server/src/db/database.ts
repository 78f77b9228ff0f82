/**
 * One data layer for both storage modes: a `pg.Pool` either over a real PostgreSQL server
 * (`DATABASE_URL`) or over embedded PGlite (a data directory, or `memory://`), with Kysely on top.
 * Only the construction of the pool differs; every query and migration is the same SQL.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { runMigrations } from './migrate.ts';
import { nameStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export interface DatabaseOptions {
  /** A PostgreSQL connection string; wins over `dataDir`. */
  databaseUrl?: string;
  /** PGlite data directory, or `memory://` for a throwaway in-memory database. */
  dataDir: string;
  /**
   * PGlite only, for tests: a new database (`memory://`, or a directory without one yet) starts as a
   * copy of this `PGlite.dumpDataDir()` tarball instead of running initdb, which costs seconds per
   * start. The migrations still run afterwards, as on every start.
   */
  pgliteTemplate?: Blob;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  /** 'postgres' or 'pglite', for logs. */
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/** PGlite's extensions: pgvector for semantic knowledge search (migration 021), loaded whether or not embeddings are configured. */
export const PGLITE_EXTENSIONS = { vector };

type PgliteAssets = { pgliteWasmModule?: WebAssembly.Module; fsBundle?: Blob };
let assets: Promise<PgliteAssets> | undefined;

/**
 * PGlite's compiled WebAssembly and its file bundle, read once per process: by default each PGlite
 * reads and compiles them anew, a sixth of a start, paid by every embedded database a process
 * opens (a test file opens many). Without them (another PGlite layout), each start reads its own.
 */
function pgliteAssets(): Promise<PgliteAssets> {
  assets ??= (async () => {
    try {
      const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
      const [wasm, bundle] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
      return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) };
    } catch {
      return {};
    }
  })();
  return assets;
}

// Keep bigint columns (seq, kb_revision, counts) as strings: JS numbers would lose precision silently.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => value);

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let pool: pg.Pool;
  let pglite: PGlite | undefined;
  if (options.databaseUrl) {
    pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  } else {
    if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
    const fresh = options.dataDir.startsWith('memory://') || !existsSync(join(options.dataDir, 'PG_VERSION'));
    const template = fresh && options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {};
    pglite = new PGlite(options.dataDir, { extensions: PGLITE_EXTENSIONS, ...(await pgliteAssets()), ...template });
    await pglite.waitReady;
    pool = new pg.Pool(createPgConfig(pglite));
    nameStatements(pool);
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await runMigrations(db);
  } catch (error) {
    await db.destroy();
    await pglite?.close();
    throw error;
  }
  return {
    db,
    kind: pglite ? 'pglite' : 'postgres',
    async close() {
      await db.destroy();
      // PGlite flushes its data directory on close; a real server's pool just ends.
      await pglite?.close();
    },
  };
}
