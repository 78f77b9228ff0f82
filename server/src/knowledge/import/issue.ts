/**
 * Why a document of an import was not read (`ImportIssueError`), with a stable code. A job lists
 * them per document and goes on; when the import's own page or sitemap cannot be read, the job fails
 * with that code instead.
 */
export type ImportIssueCode =
  | 'unsupported_scheme'
  | 'credentials_in_url'
  | 'other_host'
  | 'private_address'
  | 'robots_disallowed'
  | 'robots_unavailable'
  | 'too_many_redirects'
  | 'not_found'
  | 'http_error'
  | 'fetch_failed'
  | 'fetch_timeout'
  | 'page_too_large'
  | 'unsupported_content_type'
  | 'unreadable_document'
  | 'empty_document'
  | 'page_limit'
  | 'document_too_large'
  | 'too_many_sections'
  | 'knowledge_quota_exceeded'
  | 'job_timeout';

export class ImportIssueError extends Error {
  override name = 'ImportIssueError';

  constructor(
    readonly code: ImportIssueCode,
    message: string,
  ) {
    super(message);
  }
}
