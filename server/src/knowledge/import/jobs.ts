/**
 * Import jobs, run as agent training jobs are (both on `jobs/background.ts`): queued → running →
 * succeeded | failed; a job row is created with its import in one transaction, at most one active
 * per import (checked there and enforced by a partial unique index, so a second process cannot
 * start one); the process that created it claims it (`queued` → `running` in one conditional
 * update, so no two runs of a job ever happen) and runs it in its background, touching
 * `heartbeat_at`; on start-up, jobs a dead process left behind are marked failed with
 * `interrupted`. Progress is written after every document, so `GET /v1/knowledge/imports/{id}`
 * shows it while the job runs.
 *
 * Nothing of a job runs long on the event loop: documents are parsed in a worker thread
 * (`parser.ts`) and written in chunks (`entries.ts`). An account runs at most `runningPerAccount`
 * jobs at once in a process (`account-slots.ts`; the rest stay `queued`), and a job running past
 * `jobTimeoutMs` is stopped and fails with `job_timeout`.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { KnowledgeImportIssue, KnowledgeImportJob, KnowledgeImportJobStatus, KnowledgeImportProgress } from '../../../../src/client/types.ts';
import type { Database, KnowledgeImportJobsTable, KnowledgeImportsTable } from '../../db/schema.ts';
import { iso, json } from '../../db/json.ts';
import { BackgroundRuns, type JobTimingOptions } from '../../jobs/background.ts';
import type { Logger } from '../../logger.ts';
import { AccountSlots } from './account-slots.ts';
import { crawl, resultOfIssue, type DocumentResult } from './crawler.ts';
import type { DocumentFormat } from './documents.ts';
import { noCounts, removeOtherDocuments, writeDocument, type EntryCounts, type ImportTarget } from './entries.ts';
import { ImportIssueError } from './issue.ts';
import type { ImportConfig } from './options.ts';
import { DocumentParser, type Parse } from './parser.ts';

/** An uploaded file, decoded. */
export interface UploadedFile {
  name: string;
  format: DocumentFormat;
  bytes: Buffer;
}

type JobRow = Selectable<KnowledgeImportJobsTable>;
type ImportRow = Selectable<KnowledgeImportsTable>;

export const ACTIVE_JOB = ['queued', 'running'] as const;
const MAX_ISSUES = 100;

export const emptyProgress = (): KnowledgeImportProgress => ({
  documents_found: 0,
  documents_done: 0,
  entries_created: 0,
  entries_updated: 0,
  entries_deleted: 0,
  entries_unchanged: 0,
});

export function toImportJob(row: JobRow): KnowledgeImportJob {
  return {
    id: row.id,
    status: row.status as KnowledgeImportJobStatus,
    progress: { ...emptyProgress(), ...(row.progress as Partial<KnowledgeImportProgress>) },
    issues: (row.issues ?? []) as KnowledgeImportIssue[],
    error: (row.error as KnowledgeImportJob['error']) ?? null,
    created_at: iso(row.created_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

type Outcome = { status: 'succeeded' | 'failed'; error: { code: string; message: string } | null };

/** What one run keeps while it goes: the counts are added to the progress whenever it is saved. */
interface RunState {
  progress: KnowledgeImportProgress;
  counts: EntryCounts;
  issues: KnowledgeImportIssue[];
  /** Aborted at the job's deadline, with a `job_timeout` reason. */
  signal: AbortSignal;
}

function addCounts(progress: KnowledgeImportProgress, counts: EntryCounts): void {
  progress.entries_created = counts.created;
  progress.entries_updated = counts.updated;
  progress.entries_deleted = counts.deleted;
  progress.entries_unchanged = counts.unchanged;
}

function jobTimeout(ms: number): ImportIssueError {
  return new ImportIssueError('job_timeout', `The import ran longer than ${ms} ms and was stopped; what it wrote stays (sync it again to go on).`);
}

const INTERRUPTED = { code: 'interrupted', message: 'The service stopped before this import finished; sync it again.' };

export class ImportJobs {
  /** This process's runs, their heartbeats and shutdown (shared with the import service's checks). */
  readonly runs: BackgroundRuns;
  /** Parses documents in its worker thread (public for tests). */
  readonly parser: DocumentParser;
  private readonly slots: AccountSlots;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly config: ImportConfig,
    options: JobTimingOptions = {},
  ) {
    this.runs = new BackgroundRuns(options);
    this.parser = new DocumentParser(config);
    this.slots = new AccountSlots(config.runningPerAccount);
  }

  /**
   * Runs a queued job in the background once its account has a free slot (its heartbeat beats
   * while it waits); `done` settles when it reached its final state (never rejects).
   */
  start(job: JobRow, source: ImportRow, files: UploadedFile[] | null): Promise<void> {
    const beat = () => this.db.updateTable('knowledge_import_jobs').set({ heartbeat_at: sql`now()` }).where('id', '=', job.id).execute();
    return this.runs.start(job.id, beat, async () => {
      await this.slots.acquire(source.account_id);
      try {
        await this.run(job, source, files);
      } finally {
        this.slots.release(source.account_id);
      }
    });
  }

  /** Marks jobs left active by a dead process as failed (`interrupted`). Returns how many. */
  async recoverInterrupted(): Promise<number> {
    const failed = await this.db
      .updateTable('knowledge_import_jobs')
      .set({ status: 'failed', finished_at: sql`now()`, error: json(INTERRUPTED) })
      .where('status', 'in', ACTIVE_JOB)
      .where(this.runs.abandoned())
      .returning('id')
      .execute();
    if (failed.length) this.logger.info('interrupted import jobs marked failed', { jobs: failed.map((j) => j.id) });
    return failed.length;
  }

  /**
   * Stops accepting jobs; running ones stop after their current document and record `interrupted`,
   * and so do queued ones, without starting.
   */
  async close(): Promise<void> {
    const closed = this.runs.close();
    this.slots.close();
    await closed;
    await this.parser.close();
  }

  private async run(job: JobRow, source: ImportRow, files: UploadedFile[] | null): Promise<void> {
    if (this.runs.closed) {
      await this.db
        .updateTable('knowledge_import_jobs')
        .set({ status: 'failed', finished_at: sql`now()`, error: json(INTERRUPTED) })
        .where('id', '=', job.id)
        .where('status', '=', 'queued')
        .execute()
        .catch((error: unknown) => this.logger.error('import job outcome not recorded', { job_id: job.id, error: String(error) }));
      return;
    }
    // The one conditional update that makes this run the job's only run.
    const claimed = await this.db
      .updateTable('knowledge_import_jobs')
      .set({ status: 'running', started_at: sql`now()`, heartbeat_at: sql`now()` })
      .where('id', '=', job.id)
      .where('status', '=', 'queued')
      .executeTakeFirst()
      .catch((error: unknown) => {
        this.logger.error('import job not claimed', { job_id: job.id, error: String(error) });
        return { numUpdatedRows: 0n };
      });
    if (claimed.numUpdatedRows === 0n) return;
    const progress = emptyProgress();
    const counts = noCounts();
    const issues: KnowledgeImportIssue[] = [];
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(jobTimeout(this.config.jobTimeoutMs)), this.config.jobTimeoutMs);
    timer.unref();
    let outcome: Outcome | null;
    try {
      outcome = await this.importDocuments(job, source, files, { progress, counts, issues, signal: deadline.signal });
    } catch (error) {
      outcome = { status: 'failed', error: this.toFailure(error, job.id) };
    } finally {
      clearTimeout(timer);
      addCounts(progress, counts);
    }
    if (!outcome) return; // ended elsewhere: its outcome is recorded already
    // Only while still running: another instance may have failed it as interrupted (its heartbeat
    // went stale) and started the next one, whose record this one must not overwrite.
    await this.db
      .updateTable('knowledge_import_jobs')
      .set({ status: outcome.status, error: outcome.error ? json(outcome.error) : null, progress: json(progress), issues: json(issues), finished_at: sql`now()` })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .execute()
      .catch((error: unknown) => this.logger.error('import job outcome not recorded', { job_id: job.id, error: String(error) }));
  }

  private async importDocuments(job: JobRow, source: ImportRow, files: UploadedFile[] | null, state: RunState): Promise<Outcome | null> {
    const { progress, counts, issues, signal } = state;
    const target: ImportTarget = { accountId: source.account_id, importId: source.id, tags: source.tags, language: source.language };
    const keep = new Set<string>();
    let read = 0;
    /** Records the progress; false when the job is no longer this run's (ended elsewhere, or its import deleted). */
    const save = async () => {
      addCounts(progress, counts);
      const saved = await this.db
        .updateTable('knowledge_import_jobs')
        .set({ progress: json(progress), issues: json(issues) })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return saved.numUpdatedRows > 0n;
    };
    for await (const result of this.documents(source, files, progress, signal)) {
      signal.throwIfAborted();
      if (this.runs.closed) return { status: 'failed', error: INTERRUPTED };
      if ('document' in result) {
        await writeDocument(this.db, target, result.key, result.url, result.document, { signal, counts, maxAccountEntries: this.config.maxAccountEntries });
        keep.add(result.key);
        read++;
      } else {
        if (result.keepEntries) keep.add(result.key);
        if (issues.length < MAX_ISSUES) issues.push({ document: result.key, code: result.issue.code, message: result.issue.message });
      }
      if ('document' in result || result.issue.code !== 'page_limit') progress.documents_done++;
      if (!(await save())) return null;
    }
    // Nothing could be read: keep what the import holds rather than delete it all over one bad run.
    if (read === 0 && issues.length) {
      const first = issues[0]!;
      return { status: 'failed', error: { code: first.code, message: `No document could be imported: ${first.message}` } };
    }
    counts.deleted += await removeOtherDocuments(this.db, target, keep, signal);
    return { status: 'succeeded', error: null };
  }

  private async *documents(source: ImportRow, files: UploadedFile[] | null, progress: KnowledgeImportProgress, signal: AbortSignal): AsyncGenerator<DocumentResult> {
    const parse: Parse = this.parser.parserFor(signal);
    if (source.kind === 'files') {
      progress.documents_found = files?.length ?? 0;
      for (const file of files ?? []) {
        try {
          yield { key: file.name, url: null, document: await parse(file.bytes, file.format, file.name) };
        } catch (error) {
          if (!(error instanceof ImportIssueError) || error.code === 'job_timeout') throw error;
          yield resultOfIssue(file.name, null, error);
        }
      }
      return;
    }
    yield* crawl({
      kind: source.kind as 'url' | 'sitemap',
      url: source.url!,
      maxPages: source.max_pages,
      policy: { allowPrivateHosts: this.config.allowPrivateHosts, timeoutMs: this.config.timeoutMs, maxBytes: this.config.pageBytes, signal },
      parse,
      onFound: (count) => (progress.documents_found = count),
    });
  }

  private toFailure(error: unknown, jobId: string): { code: string; message: string } {
    if (error instanceof ImportIssueError) return { code: error.code, message: error.message };
    this.logger.error('import job failed', { job_id: jobId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return { code: 'internal_error', message: 'The import failed unexpectedly; sync it again or contact support with the job id.' };
  }
}
