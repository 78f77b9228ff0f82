/** `/v1/knowledge`: create, list, read, update and search knowledge entries; imports under `/imports`. */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type {
  CreateKnowledgeRequest,
  KnowledgeSearchResult,
  UpdateKnowledgeRequest,
} from '../../../src/client/types.ts';
import { accountId, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { idempotent } from '../http/idempotency.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import type { Database } from '../db/schema.ts';
import type { KnowledgeImports } from './import/service.ts';
import type { KnowledgeService } from './service.ts';
import { importRoutes } from './import/routes.ts';
import {
  createKnowledgeSchema,
  listKnowledgeQuerySchema,
  searchKnowledgeQuerySchema,
  updateKnowledgeSchema,
} from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface KnowledgeRouteDeps {
  db: Kysely<Database>;
  knowledge: KnowledgeService;
  knowledgeImports: KnowledgeImports;
}

export function knowledgeRoutes(deps: KnowledgeRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const entryId = (c: Parameters<typeof accountId>[0]) => pathId(c, 'entry_id', 'kb', 'knowledge entry');

  router.post('/', idempotent(deps.db), async (c) => {
    const body = await readJson<CreateKnowledgeRequest>(c, createKnowledgeSchema);
    return ok(c, await deps.knowledge.create(accountId(c), body), 201);
  });
  router.get('/', async (c) => {
    const query = readQuery<{ limit: number; cursor?: string }>(c, listKnowledgeQuerySchema);
    return ok(c, await deps.knowledge.list(accountId(c), query));
  });

  // Registered before `/:entry_id` so "imports" and "search" are never taken for an id.
  router.route('/imports', importRoutes(deps));
  router.get('/search', async (c) => {
    const query = readQuery<{ q: string; limit: number; tags?: string; language?: string }>(c, searchKnowledgeQuerySchema);
    const tags = query.tags?.split(',').map((t) => t.trim()).filter(Boolean);
    const items = await deps.knowledge.search(accountId(c), {
      q: query.q,
      limit: query.limit,
      tags,
      language: query.language,
    });
    const result: KnowledgeSearchResult = { query: query.q, items };
    return ok(c, result);
  });

  router.get('/:entry_id', async (c) => ok(c, await deps.knowledge.get(accountId(c), entryId(c))));
  router.put('/:entry_id', async (c) => {
    const id = entryId(c);
    const body = await readJson<UpdateKnowledgeRequest>(c, updateKnowledgeSchema);
    return ok(c, await deps.knowledge.update(accountId(c), id, body));
  });
  router.delete('/:entry_id', async (c) => ok(c, await deps.knowledge.delete(accountId(c), entryId(c))));
  return router;
}
