import { isCidr, type PrivateHosts } from './addresses.ts';

/** The operator's limits for knowledge imports (`ServiceOptions.imports`, `AI_CHAT_IMPORT_*`). */
export interface ImportOptions {
  /**
   * Let imports read private, loopback and link-local addresses: all of them (`true`;
   * `AI_CHAT_IMPORT_ALLOW_PRIVATE_HOSTS=1`) or those in some CIDR ranges (`['10.0.0.0/8']`;
   * `AI_CHAT_IMPORT_ALLOW_PRIVATE_HOSTS=10.0.0.0/8,fd00::/8`). Default false: tenants' URLs reach
   * public hosts only. For an intranet install, and for tests.
   */
  allowPrivateHosts?: PrivateHosts;
  /** The most bytes of uploaded files in one request, decoded (`AI_CHAT_IMPORT_MAX_BYTES`). Default 10 MiB. */
  maxUploadBytes?: number;
  /** The most pages one import may read (`AI_CHAT_IMPORT_MAX_PAGES`); its `max_pages` can only be lower. Default 500. */
  maxPages?: number;
  /** The most bytes read of one page or sitemap (`AI_CHAT_IMPORT_PAGE_BYTES`). Default 5 MiB. */
  pageBytes?: number;
  /** Time for one page, redirects included (`AI_CHAT_IMPORT_TIMEOUT_MS`). Default 15 s. */
  timeoutMs?: number;
  /** Time for one whole job, from its start; past it the job fails with `job_timeout` (`AI_CHAT_IMPORT_JOB_TIMEOUT_MS`). Default 10 min. */
  jobTimeoutMs?: number;
  /** Jobs of one account running at once in this process; the others wait, `queued` (`AI_CHAT_IMPORT_RUNNING_PER_ACCOUNT`). Default 2. */
  runningPerAccount?: number;
  /** Jobs of one account queued or running at most; another is refused with 429 `import_queue_full` (`AI_CHAT_IMPORT_JOBS_PER_ACCOUNT`). Default 10. */
  jobsPerAccount?: number;
  /** Sections (headings, PDF pages) of one document at most; more: `too_many_sections` (`AI_CHAT_IMPORT_MAX_SECTIONS`). Default 2,000. */
  maxSections?: number;
  /** Knowledge entries of one account that imports may fill up to; past it: `knowledge_quota_exceeded` (`AI_CHAT_KNOWLEDGE_MAX_ENTRIES`). Default 100,000. */
  maxAccountEntries?: number;
  /** Bytes a PDF's compressed streams may inflate to, together; more: `document_too_large` (`AI_CHAT_IMPORT_MAX_INFLATED_BYTES`). Default 128 MiB. */
  maxInflatedBytes?: number;
  /** Time to read one document, in the parsing thread; past it: `document_too_large` (`AI_CHAT_IMPORT_PARSE_TIMEOUT_MS`). Default 60 s. */
  parseTimeoutMs?: number;
  /** Heap of the parsing thread in MB; a document that needs more: `document_too_large` (`AI_CHAT_IMPORT_PARSE_MEMORY_MB`). Default 256. */
  parseMemoryMb?: number;
}

export type ImportConfig = Required<ImportOptions>;

function int(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function importOptionsFromEnv(env: NodeJS.ProcessEnv): ImportOptions {
  return {
    allowPrivateHosts: privateHostsFromEnv(env.AI_CHAT_IMPORT_ALLOW_PRIVATE_HOSTS),
    maxUploadBytes: int(env.AI_CHAT_IMPORT_MAX_BYTES),
    maxPages: int(env.AI_CHAT_IMPORT_MAX_PAGES),
    pageBytes: int(env.AI_CHAT_IMPORT_PAGE_BYTES),
    timeoutMs: int(env.AI_CHAT_IMPORT_TIMEOUT_MS),
    jobTimeoutMs: int(env.AI_CHAT_IMPORT_JOB_TIMEOUT_MS),
    runningPerAccount: int(env.AI_CHAT_IMPORT_RUNNING_PER_ACCOUNT),
    jobsPerAccount: int(env.AI_CHAT_IMPORT_JOBS_PER_ACCOUNT),
    maxSections: int(env.AI_CHAT_IMPORT_MAX_SECTIONS),
    maxAccountEntries: int(env.AI_CHAT_KNOWLEDGE_MAX_ENTRIES),
    maxInflatedBytes: int(env.AI_CHAT_IMPORT_MAX_INFLATED_BYTES),
    parseTimeoutMs: int(env.AI_CHAT_IMPORT_PARSE_TIMEOUT_MS),
    parseMemoryMb: int(env.AI_CHAT_IMPORT_PARSE_MEMORY_MB),
  };
}

/** `1`/`true`: all; a comma-separated list of CIDR ranges: those (invalid ones ignored); else none. */
export function privateHostsFromEnv(value: string | undefined): PrivateHosts {
  if (!value) return false;
  if (value === '1' || value === 'true') return true;
  const ranges = value.split(',').map((r) => r.trim()).filter(isCidr);
  return ranges.length ? ranges : false;
}

export function resolveImportConfig(options: ImportOptions = {}): ImportConfig {
  return {
    allowPrivateHosts: options.allowPrivateHosts ?? false,
    maxUploadBytes: options.maxUploadBytes ?? 10 * 1024 * 1024,
    maxPages: options.maxPages ?? 500,
    pageBytes: options.pageBytes ?? 5 * 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 15_000,
    jobTimeoutMs: options.jobTimeoutMs ?? 10 * 60_000,
    runningPerAccount: options.runningPerAccount ?? 2,
    jobsPerAccount: options.jobsPerAccount ?? 10,
    maxSections: options.maxSections ?? 2_000,
    maxAccountEntries: options.maxAccountEntries ?? 100_000,
    maxInflatedBytes: options.maxInflatedBytes ?? 128 * 1024 * 1024,
    parseTimeoutMs: options.parseTimeoutMs ?? 60_000,
    parseMemoryMb: options.parseMemoryMb ?? 256,
  };
}

/** The request body limit of an upload: base64 grows the files by a third, plus room for the JSON around them. */
export function uploadBodyBytes(config: ImportConfig): number {
  return Math.ceil((config.maxUploadBytes * 4) / 3) + 64 * 1024;
}

/** Requests that carry uploaded files (`POST …/knowledge/imports` and `…/imports/{id}/sync`) on either /v1 mount. */
export function isUploadPath(path: string): boolean {
  return /\/v1\/knowledge\/imports(?:\/[^/]+\/sync)?\/?$/.test(path);
}
