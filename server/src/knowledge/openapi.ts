/** The knowledge base endpoints on /v1 in the OpenAPI document (openapi/document.ts spreads them into its paths). */
import { pageOf, ref } from '../openapi/components.ts';
import { operation, PATH_IDS } from '../openapi/operation.ts';
import { knowledgeImportPaths } from './import/openapi.ts';
import { listKnowledgeQuerySchema, searchKnowledgeQuerySchema } from './schema.ts';

const ENTRY = PATH_IDS.entry;

export function knowledgePaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/knowledge': {
      post: operation({
        operationId: 'createKnowledgeEntry',
        idempotent: true,
        tag: 'Knowledge Base',
        summary: 'Add information to the knowledge base',
        body: 'CreateKnowledgeRequest',
        success: [{ status: 201, data: 'KnowledgeEntry', description: 'The created entry (version 1).' }],
        errors: [],
      }),
      get: operation({
        operationId: 'listKnowledgeEntries',
        tag: 'Knowledge Base',
        summary: 'List knowledge entries (newest first)',
        query: listKnowledgeQuerySchema,
        success: [{ status: 200, data: pageOf(ref('KnowledgeEntry')), description: 'A page of entries.' }],
        errors: [],
      }),
    },
    ...knowledgeImportPaths(),
    '/v1/knowledge/search': {
      get: operation({
        operationId: 'searchKnowledge',
        tag: 'Knowledge Base',
        summary: 'Search the knowledge base',
        description: 'Ranked (BM25+), typo-tolerant, prefix-matching, stemmed per language, titles boosted. One hit per entry.',
        query: searchKnowledgeQuerySchema,
        success: [{ status: 200, data: 'KnowledgeSearchResult', description: 'The hits, best first.' }],
        errors: [],
      }),
    },
    '/v1/knowledge/{entry_id}': {
      get: operation({
        operationId: 'getKnowledgeEntry',
        tag: 'Knowledge Base',
        summary: 'Retrieve a knowledge entry',
        pathIds: [ENTRY],
        success: [{ status: 200, data: 'KnowledgeEntry', description: 'The entry.' }],
        errors: [],
      }),
      put: operation({
        operationId: 'updateKnowledgeEntry',
        tag: 'Knowledge Base',
        summary: 'Update a knowledge entry',
        description: 'Any subset of the fields; `version` increments. Search reflects the change at once.',
        pathIds: [ENTRY],
        body: 'UpdateKnowledgeRequest',
        success: [{ status: 200, data: 'KnowledgeEntry', description: 'The updated entry.' }],
        errors: [],
      }),
      delete: operation({
        operationId: 'deleteKnowledgeEntry',
        tag: 'Knowledge Base',
        summary: 'Delete a knowledge entry',
        description:
          'Search and grounded answers stop finding it at once. Stored messages that cited it keep their citation. The deletion is counted in the usage report. A second delete answers 404.',
        pathIds: [ENTRY],
        success: [{ status: 200, data: 'Deletion', description: 'What was deleted.' }],
        errors: [],
      }),
    },
  };
}
