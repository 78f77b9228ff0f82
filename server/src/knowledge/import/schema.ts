/**
 * JSON Schemas (2020-12) of the knowledge-import endpoints' inputs; the routes validate with them and
 * the OpenAPI document embeds the same objects. What a schema cannot see (a URL's scheme, decoded
 * sizes, a file's format) the service checks (`service.ts`).
 */
import { schemas, type JsonSchema } from '../../http/validate.ts';

const tag: JsonSchema = { type: 'string', minLength: 1, maxLength: 50 };

export const importFileSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'data'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'File name; unique within the import (a re-sync matches documents by it).' },
    media_type: {
      type: 'string',
      maxLength: 100,
      description: '`text/markdown`, `text/html`, `text/plain` or `application/pdf`; default from the name\'s extension (.md, .html, .txt, .pdf).',
    },
    data: { type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$', description: 'The file\'s bytes, base64-encoded (standard alphabet).' },
  },
};

const files: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 50,
  items: importFileSchema,
  description: '1–50 files. Their decoded size together is limited by the service (default 10 MiB; 413 `payload_too_large` above).',
};

export const createImportSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: {
      type: 'string',
      enum: ['files', 'url', 'sitemap'],
      description: '`files`: uploaded documents; `url`: a page and the same-host pages it links to; `sitemap`: the pages a sitemap lists.',
    },
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: '`url` and `sitemap` (required there): an `http:`/`https:` URL without credentials.',
    },
    files: { ...files, description: `\`files\` (required there): ${files.description as string}` },
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'A label; default the URL or the first file name.' },
    max_pages: { type: 'integer', minimum: 1, maximum: 10_000, description: '`url` and `sitemap`: the most pages read; default 50, at most the service\'s limit (default 500).' },
    tags: { type: 'array', maxItems: 20, items: tag, description: 'Tags of every entry the import writes.' },
    language: { ...schemas.language, description: 'Language of the documents (their stemmer); default `en`.' },
  },
};

export const syncImportSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { files: { ...files, description: `A \`files\` import's documents anew (required there; refused for others). ${files.description as string}` } },
};

export const importQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { wait: { type: 'boolean', default: false, description: 'Answer when the job has finished (200) instead of at once (202).' } },
};

export const listImportsQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: schemas.limit(200, 50), cursor: schemas.cursor },
};

// ---------------------------------------------------------------- responses (OpenAPI components)

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const count: JsonSchema = { type: 'integer', minimum: 0 };

const importJob: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'progress', 'issues', 'error', 'created_at', 'started_at', 'finished_at'],
  properties: {
    id: schemas.id('job'),
    status: { enum: ['queued', 'running', 'succeeded', 'failed'] },
    progress: {
      type: 'object',
      additionalProperties: false,
      required: ['documents_found', 'documents_done', 'entries_created', 'entries_updated', 'entries_deleted', 'entries_unchanged'],
      properties: {
        documents_found: { ...count, description: 'Documents found so far (grows while a site is crawled).' },
        documents_done: count,
        entries_created: count,
        entries_updated: count,
        entries_deleted: count,
        entries_unchanged: count,
      },
    },
    issues: {
      type: 'array',
      maxItems: 100,
      description: 'Documents skipped or not read (the job goes on without them), up to 100.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['document', 'code', 'message'],
        properties: {
          document: { type: 'string', description: 'The page URL or file name.' },
          code: {
            type: 'string',
            description:
              '`robots_disallowed`, `not_found` (404/410: its entries are deleted), `http_error`, `fetch_failed`, `fetch_timeout` (these three keep its entries until a later sync reads it), `page_too_large`, `unsupported_content_type`, `private_address`, `other_host`, `unsupported_scheme`, `credentials_in_url`, `too_many_redirects`, `unreadable_document`, `empty_document`, `page_limit`, `too_many_sections` (more headings or PDF pages than a document may have), `document_too_large` (more time or memory than a document may take to read, or a PDF whose streams inflate past the limit), `knowledge_quota_exceeded`.',
          },
          message: { type: 'string' },
        },
      },
    },
    error: {
      type: ['object', 'null'],
      description:
        'Why a failed job failed: an issue code of the import\'s own page or sitemap (also `robots_unavailable`), the code of the only document\'s issue, `knowledge_quota_exceeded` (the account\'s entry quota reached: what was written stays), `job_timeout` (past the job\'s deadline: what was written stays), `interrupted` or `internal_error`.',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
    created_at: dateTime,
    started_at: nullableDateTime,
    finished_at: nullableDateTime,
  },
};

const knowledgeImport: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'kind', 'name', 'url', 'max_pages', 'tags', 'language', 'entries', 'job', 'created_at', 'updated_at'],
  properties: {
    id: schemas.id('kbi'),
    kind: { enum: ['files', 'url', 'sitemap'] },
    name: { type: 'string' },
    url: { type: ['string', 'null'], description: 'The page or sitemap; `null` for files.' },
    max_pages: { type: 'integer', minimum: 1 },
    tags: { type: 'array', items: { type: 'string' } },
    language: { type: 'string' },
    entries: { ...count, description: 'Entries the import holds now.' },
    job: { oneOf: [{ $ref: '#/components/schemas/KnowledgeImportJob' }, { type: 'null' }], description: 'The latest job.' },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

export const knowledgeImportComponents: Record<string, JsonSchema> = {
  CreateKnowledgeImportRequest: createImportSchema,
  SyncKnowledgeImportRequest: syncImportSchema,
  KnowledgeImportJob: importJob,
  KnowledgeImport: knowledgeImport,
};
