/**
 * The knowledge base: entries, search, and imports of documents and web pages. Part of the v1 wire
 * contract (types.ts).
 */

/** Which knowledge grounds an agent's or a bot's answers. */
export interface KnowledgeScope {
  /** Only entries carrying one of these tags ground the agent's or bot's answers. Empty: all entries. */
  tags?: string[];
  /**
   * The least `KnowledgeHit.relevance` (0–1) a passage needs to ground an answer; below it the reply
   * is the fallback (or a handoff). Default 0.5, calibrated on a banking FAQ; 0 turns the gate off.
   */
  min_relevance?: number;
}

export interface CreateKnowledgeRequest {
  /** Required, 1–200 characters. */
  title: string;
  /** Required, 1–100,000 characters (markdown or plain text). */
  content: string;
  /** Up to 20 tags of 1–50 characters. */
  tags?: string[];
  language?: string;
  /** Where the text came from: a URL or a label. */
  source?: string;
}

export type UpdateKnowledgeRequest = Partial<CreateKnowledgeRequest>;

export interface KnowledgeEntry {
  id: string;
  title: string;
  content: string;
  tags: string[];
  language: string;
  source: string | null;
  /** The page an imported entry came from; `null` for typed entries. */
  url: string | null;
  /** The headings above an imported entry's text in its document, outermost first; `[]` for typed entries. */
  heading_path: string[];
  /** The import that wrote the entry (its re-sync updates or deletes it); `null` for typed entries. */
  import_id: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeSearchQuery {
  /** Required, 1–500 characters. */
  q: string;
  /** 1–50; default 10. */
  limit?: number;
  /** Only entries with at least one of these tags (comma-separated on the wire). */
  tags?: string[];
  language?: string;
}

export interface KnowledgeHit {
  entry_id: string;
  title: string;
  snippet: string;
  score: number;
  /**
   * How likely the entry answers the query, 0–1, calibrated like a probability (the best BM25 hit
   * of an unrelated question scores low); chat answers only from hits reaching the bot's or
   * agent's `knowledge.min_relevance`.
   */
  relevance: number;
  tags: string[];
  source: string | null;
  /** The page to link (see `Citation.url`), or `null`. */
  url: string | null;
  heading_path: string[];
}

export interface KnowledgeSearchResult {
  query: string;
  items: KnowledgeHit[];
}

/** What an import reads: uploaded files, one page and the same-host pages it links to, or a sitemap's pages. */
export type KnowledgeImportKind = 'files' | 'url' | 'sitemap';

/** One uploaded document of a `files` import. */
export interface KnowledgeImportFile {
  /** File name, 1–200 characters; unique within the import (re-sync matches documents by it). */
  name: string;
  /** `text/markdown`, `text/html`, `text/plain` or `application/pdf`; default from the name's extension. */
  media_type?: string;
  /** The file's bytes, base64-encoded. */
  data: string;
}

/** `POST /v1/knowledge/imports`. */
export interface CreateKnowledgeImportRequest {
  kind: KnowledgeImportKind;
  /** `url` and `sitemap`: the page or the sitemap (`http:`/`https:`, no credentials). */
  url?: string;
  /** `files`: 1–50 documents. */
  files?: KnowledgeImportFile[];
  /** A label; default the URL or the first file name. */
  name?: string;
  /** `url` and `sitemap`: the most pages read, 1–the service's limit (default 50). */
  max_pages?: number;
  /** Tags of every entry the import writes. */
  tags?: string[];
  language?: string;
}

/** `POST /v1/knowledge/imports/{id}/sync`: a `files` import takes the files anew; others re-read their pages. */
export interface SyncKnowledgeImportRequest {
  files?: KnowledgeImportFile[];
}

export type KnowledgeImportJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface KnowledgeImportProgress {
  /** Documents found so far (pages grow while a site is crawled). */
  documents_found: number;
  documents_done: number;
  entries_created: number;
  entries_updated: number;
  entries_deleted: number;
  entries_unchanged: number;
}

/** A document the job skipped or could not read (it is not failed for one): why, with a stable code. */
export interface KnowledgeImportIssue {
  /** The page URL or file name. */
  document: string;
  code: string;
  message: string;
}

/** One run of an import; poll `GET /v1/knowledge/imports/{id}` for its progress. */
export interface KnowledgeImportJob {
  id: string;
  status: KnowledgeImportJobStatus;
  progress: KnowledgeImportProgress;
  /** Up to 100 issues. */
  issues: KnowledgeImportIssue[];
  error: { code: string; message: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface KnowledgeImport {
  id: string;
  kind: KnowledgeImportKind;
  name: string;
  /** The page or sitemap (`url`, `sitemap`); `null` for files. */
  url: string | null;
  max_pages: number;
  tags: string[];
  language: string;
  /** Entries this import holds now. */
  entries: number;
  /** The latest job (the running one while it runs). */
  job: KnowledgeImportJob | null;
  created_at: string;
  updated_at: string;
}
