/**
 * Where a test service keeps its data, chosen once for the whole run by the environment:
 *
 * - by default, embedded PGlite: `memory://`, or a temporary data directory when the test restarts
 *   the service on the same data (`persistent: true`), either one starting as a copy of a migrated
 *   database instead of running initdb (pglite-template.ts);
 * - with `AI_CHAT_TEST_DATABASE_URL` (a connection string of a role that may create databases, e.g.
 *   `postgres://postgres:…@127.0.0.1:5432/postgres`), a FRESH database `aicw_test_<random>` on that
 *   real PostgreSQL server per call, dropped again by `cleanup()`, so tests never see each other's rows;
 * - with `AI_CHAT_TEST_REDIS_URL`, services keep rate-limit counters in that Redis. One Redis is shared:
 *   account keys contain the account id, which is random per test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.ts';
import { createService, type Service, type ServiceOptions } from '../../src/index.ts';
import { databaseUrlFor, pgliteTemplate, postgresTemplate, sessionsEnded, withClient } from './database-template.ts';

/** The real PostgreSQL server the tests run against, or undefined for PGlite. */
export const TEST_DATABASE_URL = process.env.AI_CHAT_TEST_DATABASE_URL || undefined;
/** The real Redis the tests share rate-limit counters in, or undefined for in-process counters. */
export const TEST_REDIS_URL = process.env.AI_CHAT_TEST_REDIS_URL || undefined;

export interface TestDatabase {
  kind: 'postgres' | 'pglite';
  /** Spread into `createService()` options: `dataDir` or `databaseUrl`, and `redisUrl`. */
  options: Pick<ServiceOptions, 'dataDir' | 'pgliteTemplate' | 'databaseUrl' | 'redisUrl'>;
  /** The same for a child process running `src/main.ts`. */
  env: Record<string, string>;
  /**
   * Runs one statement in the test database from outside the service, as another process would
   * (PostgreSQL only: a PGlite directory belongs to the one service that has it open).
   */
  execute(statement: string): Promise<void>;
  /** Drops the database (or removes the data directory). Close every service using it first. */
  cleanup(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** The data must outlive a service, for a restart on the same data (PGlite: a temp directory). */
  persistent?: boolean;
}

export async function testDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const redis = TEST_REDIS_URL ? { redisUrl: TEST_REDIS_URL } : {};
  const redisEnv: Record<string, string> = TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {};
  if (TEST_DATABASE_URL) {
    const name = `aicw_test_${randomBytes(6).toString('hex')}`;
    await admin(TEST_DATABASE_URL, `CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(TEST_DATABASE_URL)}`);
    const databaseUrl = databaseUrlFor(TEST_DATABASE_URL, name);
    return {
      kind: 'postgres',
      options: { databaseUrl, ...redis },
      env: { DATABASE_URL: databaseUrl, ...redisEnv },
      execute: (statement) => admin(databaseUrl, statement),
      cleanup: () => dropDatabase(TEST_DATABASE_URL, name),
    };
  }
  const execute = async () => {
    throw new Error('TestDatabase.execute needs PostgreSQL (AI_CHAT_TEST_DATABASE_URL)');
  };
  const template = await pgliteTemplate();
  if (!options.persistent) {
    return {
      kind: 'pglite',
      options: { dataDir: 'memory://', pgliteTemplate: template, ...redis },
      env: { AI_CHAT_DATA_DIR: 'memory://', ...redisEnv },
      execute,
      cleanup: async () => {},
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'aicw-test-'));
  // Written here, before any service opens it: a child server (`env`) cannot be handed the template.
  await (await openDatabase({ dataDir, pgliteTemplate: template })).close();
  return {
    kind: 'pglite',
    options: { dataDir, ...redis },
    env: { AI_CHAT_DATA_DIR: dataDir, ...redisEnv },
    execute,
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * A service on its own fresh test database (see `testDatabase`), quiet and unseeded unless `options`
 * say otherwise. Its `close()` also drops the database.
 */
export async function createTestService(options: ServiceOptions = {}): Promise<Service> {
  const database = await testDatabase();
  let service: Service;
  try {
    service = await createService({ seed: false, logLevel: 'silent', ...database.options, ...options });
  } catch (error) {
    await database.cleanup();
    throw error;
  }
  const close = service.close.bind(service);
  service.close = async () => {
    try {
      await close();
    } finally {
      await database.cleanup();
    }
  };
  return service;
}

/** Several instances of the service on one test database (and Redis, when set), as a deployment runs them. */
export interface SharedServices {
  database: TestDatabase;
  instances: Service[];
  /** Closes every instance, then drops the database. */
  close(): Promise<void>;
}

export async function sharedServices(count: number, options: ServiceOptions = {}): Promise<SharedServices> {
  const database = await testDatabase();
  const instances: Service[] = [];
  const close = async () => {
    for (const service of instances) await service.close();
    await database.cleanup();
  };
  try {
    for (let i = 0; i < count; i++) instances.push(await createService({ seed: false, logLevel: 'silent', ...database.options, ...options }));
  } catch (error) {
    await close();
    throw error;
  }
  return { database, instances, close };
}

/**
 * Drops a test database once its sessions are gone. Dropping WITH (FORCE) while a closed pool's
 * connections are still closing terminates them, and the client that receives "terminating connection
 * due to administrator command" throws it uncaught into whichever test runs next. So wait (briefly)
 * for the sessions to end first. FORCE stays for the session a child server killed with -9 may leave
 * behind, which the server has not reaped yet.
 */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, async (client) => {
    await sessionsEnded(client, name);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

async function admin(serverUrl: string, statement: string): Promise<void> {
  await withClient(serverUrl, (client) => client.query(statement));
}
