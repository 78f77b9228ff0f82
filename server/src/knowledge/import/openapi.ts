/** The knowledge-import endpoints in the OpenAPI document (document.ts spreads them into its paths; components.ts spreads `knowledgeImportComponents` of schema.ts). */
import { pageOf, ref } from '../../openapi/components.ts';
import { operation } from '../../openapi/operation.ts';
import { importQuerySchema, listImportsQuerySchema } from './schema.ts';

const IMPORT: [string, string, string] = ['import_id', 'kbi', 'knowledge import'];
const HOW =
  'Documents are split by headings: each section becomes a knowledge entry titled with the document\'s title and its headings, carrying its page `url` and `heading_path` (cited with them in answers). ' +
  'Web imports read only the URL\'s host (links and redirects elsewhere are not followed), obey its robots.txt, stop at `max_pages`, and never reach private, loopback or link-local addresses unless the operator allows them (`AI_CHAT_IMPORT_ALLOW_PRIVATE_HOSTS`); every page has a timeout and a size cap. ' +
  'Answers 202 with the import and its queued job to poll (`GET /v1/knowledge/imports/{import_id}`); with `wait=true`, 200 once the job has finished. ' +
  'An account runs two jobs at once (the others stay `queued`) and may have ten queued or running: another answers 429 `import_queue_full` (with `Retry-After`). ' +
  'A job has a deadline (default 10 min; then `job_timeout`); a document has at most 2,000 sections (`too_many_sections`) and is read within a time and memory budget (`document_too_large`, also for a PDF whose streams inflate past the limit); imports stop at the account\'s entry quota (`knowledge_quota_exceeded`). All limits are the operator\'s (`AI_CHAT_IMPORT_*`).';

export function knowledgeImportPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/knowledge/imports': {
      post: operation({
        operationId: 'createKnowledgeImport',
        idempotent: true,
        tag: 'Knowledge Base',
        summary: 'Import files, a web page with its same-host links, or a sitemap',
        description: `Files (Markdown, HTML, plain text, PDF) are sent as JSON, base64-encoded; their decoded size together is limited (default 10 MiB; 413 \`payload_too_large\`), a format the service cannot read answers 415 \`unsupported_media_type\`. A \`url\` that is not \`http:\`/\`https:\` or carries credentials answers 400 \`validation_failed\` (\`details[0].message\` starts with \`unsupported_scheme\` or \`credentials_in_url\`); one whose host is a private, loopback, link-local or reserved address literal (IPv4, or IPv6 in any form that embeds one) 400 \`url_not_allowed\`. ${HOW}`,
        query: importQuerySchema,
        body: 'CreateKnowledgeImportRequest',
        success: [
          { status: 202, data: 'KnowledgeImport', description: 'The import with its queued job.' },
          { status: 200, data: 'KnowledgeImport', description: 'The import with its finished job (`wait=true`).' },
        ],
        errors: ['ServiceUnavailable'],
      }),
      get: operation({
        operationId: 'listKnowledgeImports',
        tag: 'Knowledge Base',
        summary: 'List knowledge imports (newest first)',
        query: listImportsQuerySchema,
        success: [{ status: 200, data: pageOf(ref('KnowledgeImport')), description: 'A page of imports, each with its latest job.' }],
        errors: [],
      }),
    },
    '/v1/knowledge/imports/{import_id}': {
      get: operation({
        operationId: 'getKnowledgeImport',
        tag: 'Knowledge Base',
        summary: 'Retrieve a knowledge import with its latest job\'s progress',
        pathIds: [IMPORT],
        success: [{ status: 200, data: 'KnowledgeImport', description: 'The import.' }],
        errors: [],
      }),
      delete: operation({
        operationId: 'deleteKnowledgeImport',
        tag: 'Knowledge Base',
        summary: 'Delete a knowledge import and every entry it wrote',
        description: 'Search and grounded answers stop finding its entries at once; each is counted as a deleted knowledge entry. A job still running stops writing.',
        pathIds: [IMPORT],
        success: [{ status: 200, data: 'Deletion', description: 'What was deleted.' }],
        errors: [],
      }),
    },
    '/v1/knowledge/imports/{import_id}/sync': {
      post: operation({
        operationId: 'syncKnowledgeImport',
        idempotent: true,
        tag: 'Knowledge Base',
        summary: 'Re-sync a knowledge import',
        description: `A new job reads the source again (a \`files\` import takes its files anew in the body): changed sections are updated (their \`version\` increments), unchanged ones left untouched, sections and documents no longer there deleted; a page that could not be fetched this time keeps its entries. 409 \`conflict\` while a job of the import is queued or running. ${HOW}`,
        pathIds: [IMPORT],
        query: importQuerySchema,
        body: 'SyncKnowledgeImportRequest',
        bodyOptional: true,
        success: [
          { status: 202, data: 'KnowledgeImport', description: 'The import with its queued job.' },
          { status: 200, data: 'KnowledgeImport', description: 'The import with its finished job (`wait=true`).' },
        ],
        errors: ['ServiceUnavailable'],
      }),
    },
  };
}
