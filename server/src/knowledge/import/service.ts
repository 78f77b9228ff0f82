/**
 * Knowledge imports as a resource: create (with its first job), read with its latest job and
 * entry count, list, sync (a new job) and delete (with every entry it wrote). Jobs run in
 * `jobs.ts`; documents become entries in `entries.ts`.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  CreateKnowledgeImportRequest,
  Deletion,
  KnowledgeImport,
  KnowledgeImportFile,
  KnowledgeImportKind,
  Page,
} from '../../../../src/client/types.ts';
import { NOTHING_REMOVED } from '../../analytics/deletions.ts';
import type { Database, KnowledgeImportsTable } from '../../db/schema.ts';
import { iso, json } from '../../db/json.ts';
import { invalid, notFound, ServiceError } from '../../http/errors.ts';
import { createdKey, newestFirstPage } from '../../http/pagination.ts';
import { newId } from '../../ids.ts';
import { removeEntries, unique } from '../service.ts';
import { assertAllowedLiteral } from './addresses.ts';
import { formatOfMediaType, formatOfName, SUPPORTED_MEDIA_TYPES } from './documents.ts';
import { removeInChunks } from './entries.ts';
import { parseImportUrl } from './fetcher.ts';
import { ImportIssueError } from './issue.ts';
import { ACTIVE_JOB, emptyProgress, toImportJob, type ImportJobs, type UploadedFile } from './jobs.ts';
import type { ImportConfig } from './options.ts';

type ImportRow = Selectable<KnowledgeImportsTable>;

const DEFAULT_MAX_PAGES = 50;

export class KnowledgeImports {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: ImportJobs,
    private readonly config: ImportConfig,
  ) {}

  /** Creates the import and its first job; `done` settles when that job has finished. */
  async create(accountId: string, input: CreateKnowledgeImportRequest): Promise<{ item: KnowledgeImport; done: Promise<void> }> {
    const kind = input.kind;
    let url: string | null = null;
    let files: UploadedFile[] | null = null;
    if (kind === 'files') {
      if (input.url !== undefined) throw invalid('url', 'Invalid body: url is not taken by a files import; send files.');
      if (!input.files) throw invalid('files', 'Invalid body: a files import needs files.');
      files = this.decodeFiles(input.files);
    } else {
      if (input.files !== undefined) throw invalid('files', `Invalid body: files are not taken by a ${kind} import; send url.`);
      if (input.url === undefined) throw invalid('url', `Invalid body: a ${kind} import needs url.`);
      url = checkedUrl(input.url, this.config);
    }
    const maxPages = input.max_pages ?? Math.min(DEFAULT_MAX_PAGES, this.config.maxPages);
    if (maxPages > this.config.maxPages) throw invalid('max_pages', `Invalid body: max_pages must be at most ${this.config.maxPages} on this service.`);
    this.assertAccepting();
    const { source, job } = await this.db.transaction().execute(async (trx) => {
      await this.assertQueueRoom(trx, accountId);
      const source = await trx
        .insertInto('knowledge_imports')
        .values({
          id: newId('kbi'),
          account_id: accountId,
          kind,
          name: input.name ?? url ?? files![0]!.name,
          url,
          max_pages: maxPages,
          tags: json(unique(input.tags ?? [])),
          language: input.language ?? 'en',
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { source, job: await this.queueJob(trx, source) };
    });
    const done = this.jobs.start(job, source, files);
    return { item: await this.get(accountId, source.id), done };
  }

  /** Starts a new job over the import (409 `conflict` while one is active). */
  async sync(accountId: string, importId: string, input: { files?: KnowledgeImportFile[] }): Promise<{ item: KnowledgeImport; done: Promise<void> }> {
    const source = await this.row(accountId, importId);
    let files: UploadedFile[] | null = null;
    if (source.kind === 'files') {
      if (!input.files) throw invalid('files', 'Invalid body: syncing a files import takes its files anew; send files.');
      files = this.decodeFiles(input.files);
    } else if (input.files !== undefined) {
      throw invalid('files', `Invalid body: a ${source.kind} import re-reads its pages; send no files.`);
    }
    this.assertAccepting();
    let job;
    try {
      job = await this.db.transaction().execute(async (trx) => {
        const locked = await trx.selectFrom('knowledge_imports').selectAll().where('id', '=', importId).forUpdate().executeTakeFirst();
        if (!locked) throw notFound('import_id', 'knowledge import');
        await this.refuseIfActive(trx, importId);
        await this.assertQueueRoom(trx, accountId);
        return this.queueJob(trx, locked);
      });
    } catch (error) {
      // Another process won the race for the one active slot (partial unique index).
      if ((error as { code?: string }).code === '23505') throw conflict();
      throw error;
    }
    const done = this.jobs.start(job, source, files);
    return { item: await this.get(accountId, importId), done };
  }

  async get(accountId: string, importId: string): Promise<KnowledgeImport> {
    return (await this.toImports([await this.row(accountId, importId)]))[0]!;
  }

  /** Newest first, keyset-paginated on (created_at, id). */
  async list(accountId: string, query: { limit: number; cursor?: string }): Promise<Page<KnowledgeImport>> {
    const page = await newestFirstPage(
      this.db.selectFrom('knowledge_imports').selectAll().select(createdKey).where('account_id', '=', accountId),
      query,
      (row) => row,
    );
    return { ...page, items: await this.toImports(page.items) };
  }

  /**
   * Deletes the import and every entry it wrote (each like `DELETE /v1/knowledge/{id}`: searches stop
   * finding it at once), a chunk per transaction so other requests go on meanwhile. A job still
   * running finds its import gone and writes nothing more.
   */
  async delete(accountId: string, importId: string): Promise<Deletion> {
    await this.row(accountId, importId);
    const entries = await this.db.selectFrom('knowledge_entries').select('id').where('account_id', '=', accountId).where('import_id', '=', importId).execute();
    await removeInChunks(this.db, accountId, entries.map((entry) => entry.id));
    return this.db.transaction().execute(async (trx) => {
      // Locked first: a running job's entry insert (a foreign key to this row) waits, then fails.
      const locked = await trx
        .selectFrom('knowledge_imports')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', '=', importId)
        .forUpdate()
        .executeTakeFirst();
      if (!locked) throw notFound('import_id', 'knowledge import');
      // What a running job wrote meanwhile: a chunk or so.
      const rest = await trx.selectFrom('knowledge_entries').select('id').where('account_id', '=', accountId).where('import_id', '=', importId).execute();
      await removeEntries(trx, accountId, rest.map((entry) => entry.id));
      await trx.deleteFrom('knowledge_imports').where('id', '=', importId).execute();
      return { id: importId, deleted: true, ...NOTHING_REMOVED };
    });
  }

  private assertAccepting(): void {
    if (this.jobs.runs.closed) throw new ServiceError('service_unavailable', 'The service is shutting down; retry shortly.');
  }

  /**
   * 429 `import_queue_full` when the account has `jobsPerAccount` jobs queued or running (a job a
   * dead process left behind, its heartbeat stale, does not count).
   */
  private async assertQueueRoom(trx: Transaction<Database>, accountId: string): Promise<void> {
    const { n } = await trx
      .selectFrom('knowledge_import_jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', accountId)
      .where('status', 'in', ACTIVE_JOB)
      .where(sql<boolean>`not ${this.jobs.runs.staleHeartbeat()}`)
      .executeTakeFirstOrThrow();
    if (Number(n) < this.config.jobsPerAccount) return;
    throw new ServiceError('import_queue_full', `This account has ${n} import jobs queued or running, the most it may; retry when one has finished.`, {
      headers: { 'Retry-After': '30' },
    });
  }

  private async queueJob(trx: Transaction<Database>, source: ImportRow) {
    const job = await trx
      .insertInto('knowledge_import_jobs')
      .values({ id: newId('job'), account_id: source.account_id, import_id: source.id, status: 'queued', progress: json(emptyProgress()), issues: json([]), heartbeat_at: sql`now()` })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.updateTable('knowledge_imports').set({ latest_job_id: job.id, updated_at: sql`now()` }).where('id', '=', source.id).execute();
    return job;
  }

  private async refuseIfActive(trx: Transaction<Database>, importId: string): Promise<void> {
    const active = await trx
      .selectFrom('knowledge_import_jobs')
      .select(['id', this.jobs.runs.staleHeartbeat().as('stale')])
      .where('import_id', '=', importId)
      .where('status', 'in', ACTIVE_JOB)
      .executeTakeFirst();
    if (!active) return;
    // A job whose process died (stale heartbeat, not run here) must not block the import forever.
    if (active.stale && !this.jobs.runs.has(active.id)) {
      await trx
        .updateTable('knowledge_import_jobs')
        .set({ status: 'failed', finished_at: sql`now()`, error: json({ code: 'interrupted', message: 'The process running this import stopped; it was not finished.' }) })
        .where('id', '=', active.id)
        .execute();
      return;
    }
    throw conflict();
  }

  private decodeFiles(files: KnowledgeImportFile[]): UploadedFile[] {
    const names = new Set<string>();
    let total = 0;
    return files.map((file, i) => {
      if (names.has(file.name)) throw invalid(`files.${i}.name`, `Invalid body: files.${i}.name repeats ${JSON.stringify(file.name)}; names are unique within an import.`);
      names.add(file.name);
      const format = file.media_type !== undefined ? formatOfMediaType(file.media_type) : formatOfName(file.name);
      if (!format) {
        throw new ServiceError(
          'unsupported_media_type',
          `files.${i} is ${file.media_type ?? `named ${JSON.stringify(file.name)}`}: imports read ${SUPPORTED_MEDIA_TYPES.join(', ')} (.md, .html, .txt, .pdf).`,
          { param: `files.${i}.media_type` },
        );
      }
      const bytes = Buffer.from(file.data, 'base64');
      total += bytes.length;
      if (total > this.config.maxUploadBytes) {
        throw new ServiceError('payload_too_large', `The files are larger than ${this.config.maxUploadBytes} bytes together (decoded).`, { param: 'files' });
      }
      return { name: file.name, format, bytes };
    });
  }

  private async row(accountId: string, importId: string): Promise<ImportRow> {
    const row = await this.db.selectFrom('knowledge_imports').selectAll().where('account_id', '=', accountId).where('id', '=', importId).executeTakeFirst();
    if (!row) throw notFound('import_id', 'knowledge import');
    return row;
  }

  private async toImports(rows: ImportRow[]): Promise<KnowledgeImport[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const jobIds = rows.map((r) => r.latest_job_id).filter((id): id is string => id !== null);
    const [jobs, counts] = await Promise.all([
      jobIds.length ? this.db.selectFrom('knowledge_import_jobs').selectAll().where('id', 'in', jobIds).execute() : [],
      this.db
        .selectFrom('knowledge_entries')
        .select(['import_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where('import_id', 'in', ids)
        .groupBy('import_id')
        .execute(),
    ]);
    const jobById = new Map(jobs.map((j) => [j.id, j]));
    const countById = new Map(counts.map((c) => [c.import_id, Number(c.n)]));
    return rows.map((row) => {
      const job = row.latest_job_id ? jobById.get(row.latest_job_id) : undefined;
      return {
        id: row.id,
        kind: row.kind as KnowledgeImportKind,
        name: row.name,
        url: row.url,
        max_pages: row.max_pages,
        tags: row.tags,
        language: row.language,
        entries: countById.get(row.id) ?? 0,
        job: job ? toImportJob(job) : null,
        created_at: iso(row.created_at),
        updated_at: iso(row.updated_at),
      };
    });
  }
}

/**
 * The URL, or a 400 naming why it can never be imported: its scheme, credentials, or a host written
 * as a private address (`url_not_allowed`; a name resolving to one is refused at connect time).
 */
function checkedUrl(raw: string, config: ImportConfig): string {
  try {
    const url = parseImportUrl(raw);
    assertAllowedLiteral(url.hostname, config.allowPrivateHosts);
    return url.href;
  } catch (error) {
    if (!(error instanceof ImportIssueError)) throw error;
    if (error.code === 'private_address') throw new ServiceError('url_not_allowed', `Invalid body: url ${error.message}`, { param: 'url' });
    throw new ServiceError('validation_failed', `Invalid body: url ${error.message}`, {
      param: 'url',
      details: [{ path: '/url', message: `${error.code}: ${error.message}` }],
    });
  }
}

function conflict(): ServiceError {
  return new ServiceError('conflict', 'This import is already running; wait for its job to finish.', { param: 'import_id' });
}
