/**
 * Imported documents are parsed in one worker thread (`parse-worker.mjs` on `nlu/job-worker.ts`),
 * so a large or hostile file never blocks the service's event loop: each document has a deadline
 * and the thread a heap limit, and a document past either ends its thread and is refused as
 * `document_too_large`. Documents wait for the thread one at a time, across accounts.
 */
import { JobWorker, JobWorkerError } from '../../nlu/job-worker.ts';
import type { DocumentFormat, ParsedDocument, ParseLimits } from './documents.ts';
import { ImportIssueError, type ImportIssueCode } from './issue.ts';
import type { ImportConfig } from './options.ts';

export interface ParseInput {
  bytes: Uint8Array;
  format: DocumentFormat;
  fallbackTitle: string;
  limits: ParseLimits;
  charset?: string;
}

export type ParseOutput = { document: ParsedDocument } | { issue: { code: ImportIssueCode; message: string } };

/** Parses one document; throws `ImportIssueError` when it cannot be imported. */
export type Parse = (bytes: Uint8Array, format: DocumentFormat, fallbackTitle: string, charset?: string) => Promise<ParsedDocument>;

export class DocumentParser {
  /** The parsing thread (public for tests: a spy on `run` sees every document parsed there). */
  readonly worker: JobWorker<ParseInput, ParseOutput>;
  private readonly limits: ParseLimits;

  constructor(private readonly config: ImportConfig) {
    this.limits = { maxSections: config.maxSections, maxInflatedBytes: config.maxInflatedBytes };
    this.worker = new JobWorker(new URL('./parse-worker.mjs', import.meta.url), config.parseTimeoutMs, undefined, {
      resourceLimits: { maxOldGenerationSizeMb: config.parseMemoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.ceil(config.parseMemoryMb / 4)) },
    });
  }

  /** A `Parse` that gives up when `signal` aborts (the job's deadline), with its reason. */
  parserFor(signal: AbortSignal): Parse {
    return (bytes, format, fallbackTitle, charset) => {
      signal.throwIfAborted();
      const parsed = this.parse({ bytes, format, fallbackTitle, limits: this.limits, charset });
      let onAbort!: () => void;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      return Promise.race([parsed, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
    };
  }

  close(): Promise<void> {
    return this.worker.close();
  }

  private async parse(input: ParseInput): Promise<ParsedDocument> {
    let output: ParseOutput;
    try {
      output = await this.worker.run(input);
    } catch (error) {
      if (!(error instanceof JobWorkerError)) throw error;
      if (error.kind === 'failed') throw new ImportIssueError('unreadable_document', `${input.fallbackTitle} could not be read (${error.message}).`);
      // Past the deadline, or out of the thread's heap.
      const limit = error.kind === 'timeout' ? `${this.config.parseTimeoutMs} ms` : `${this.config.parseMemoryMb} MB of memory`;
      throw new ImportIssueError('document_too_large', `${input.fallbackTitle} needs more than ${limit} to read; a document is read only within that.`);
    }
    if ('issue' in output) throw new ImportIssueError(output.issue.code, output.issue.message);
    return output.document;
  }
}
