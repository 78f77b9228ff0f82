/**
 * The migrated database that every test database starts as a copy of, built once per version of the
 * migrations instead of once per service. The service still runs its migrations on the copy (a no-op
 * when they all apply), exactly as on any start.
 *
 * - PGlite (`ServiceOptions.pgliteTemplate`): initdb costs seconds per service, loading a dump of a
 *   migrated database well under one. The dump is kept as an uncompressed tarball in the temp
 *   directory, named after the migrations and the PGlite version, so each later test file (its own
 *   process) of the run only reads it.
 * - PostgreSQL: a database `aicw_template_<hash>` that test databases are created from
 *   (`CREATE DATABASE … TEMPLATE`), instead of running every migration on each.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, PGLITE_EXTENSIONS } from '../../src/db/database.ts';

const MIGRATIONS = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const PREFIX = 'aicw-pglite-template-';
/** Named in the dump's file: a dump made the way an older checkout made it is not reused. */
const TEMPLATE_FORMAT = 'without-template-databases';

let template: Promise<Blob> | undefined;

/** The tarball of a freshly migrated PGlite database (cached for the process and on disk). */
export function pgliteTemplate(): Promise<Blob> {
  template ??= load();
  return template;
}

/** A hash of every migration, name and text: a database built from them can stand for any other. */
export function migrationsVersion(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort()) {
    hash.update(`\0${name}\0`).update(readFileSync(join(MIGRATIONS, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The PGlite version too: its files are only read back by the version that wrote them. */
function templateVersion(): string {
  const pglitePackage = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '../package.json');
  return `${migrationsVersion()}-${JSON.parse(readFileSync(pglitePackage, 'utf8')).version}-${TEMPLATE_FORMAT}`;
}

async function load(): Promise<Blob> {
  const file = join(tmpdir(), `${PREFIX}${templateVersion()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // Not built yet for these migrations (or removed meanwhile): build it, then publish it whole.
  }
  const tarball = await build();
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  await writeFile(partial, new Uint8Array(await tarball.arrayBuffer()));
  await rename(partial, file);
  await removeStale(file);
  return tarball;
}

/**
 * Migrates a new database in a directory through the service's own `openDatabase` (its extensions
 * and migrations), then dumps that directory.
 */
async function build(): Promise<Blob> {
  const dataDir = await mkdtemp(join(tmpdir(), 'aicw-template-build-'));
  try {
    await (await openDatabase({ dataDir })).close();
    const pglite = new PGlite(dataDir, { extensions: PGLITE_EXTENSIONS });
    try {
      await pglite.waitReady;
      // The service's database is `postgres`; the two template databases, a third of the dump, would
      // only be copied into memory on every open (about 0.2 s of its 0.7 s).
      await pglite.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
      await pglite.exec('drop database template0');
      await pglite.exec('drop database template1');
      await pglite.exec('checkpoint');
      return await pglite.dumpDataDir('none');
    } finally {
      await pglite.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Dumps of other migrations, about 30 MB each, would pile up in /tmp. Only day-old ones go: another checkout
 * on this machine (other migrations) may be testing right now, and must not rebuild its dump per file.
 */
async function removeStale(current: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600_000;
  const stale = readdirSync(tmpdir())
    .filter((f) => f.startsWith(PREFIX) && f.endsWith('.tar'))
    .map((f) => join(tmpdir(), f))
    .filter((file) => file !== current && (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < dayAgo);
  await Promise.all(stale.map((file) => rm(file, { force: true })));
}

let postgres: Promise<string> | undefined;

/**
 * The name of the migrated template database on the PostgreSQL server at `serverUrl`. It is built
 * under a name of its own and renamed when complete, so a concurrent test process finds it whole or
 * not at all (and then builds its own: one rename wins, the other copy is dropped).
 */
export function postgresTemplate(serverUrl: string): Promise<string> {
  postgres ??= findOrBuildPostgresTemplate(serverUrl);
  return postgres;
}

async function findOrBuildPostgresTemplate(serverUrl: string): Promise<string> {
  const name = `aicw_template_${migrationsVersion()}`;
  return withClient(serverUrl, async (client) => {
    const exists = async (db: string) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount === 1;
    if (await exists(name)) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await client.query(`CREATE DATABASE ${building}`);
    try {
      await (await openDatabase({ databaseUrl: databaseUrlFor(serverUrl, building), dataDir: 'memory://' })).close();
      // Nothing may be connected to a database that is renamed, or copied.
      await sessionsEnded(client, building);
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      if (!(await exists(name))) throw error;
    }
    return name;
  });
}

/** The same server and credentials, another database. */
export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** `work` on a short-lived connection (no pool: nothing may keep the test process alive). */
export async function withClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Waits (up to 2 s) until no session uses database `name`. A closed pg pool resolves `end()` before
 * its connections have finished closing.
 */
export async function sessionsEnded(client: pg.Client, name: string): Promise<void> {
  for (let waited = 0; waited < 2000; waited += 20) {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
