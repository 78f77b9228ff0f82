/**
 * `/v1/knowledge/imports`: import documents and web pages as knowledge entries, as jobs (202 and an
 * import to poll, or `?wait=true` for 200 when the job has finished), re-sync, list, delete.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { CreateKnowledgeImportRequest, SyncKnowledgeImportRequest } from '../../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { idempotent } from '../../http/idempotency.ts';
import { pathId, readJson, readQuery } from '../../http/validate.ts';
import type { Database } from '../../db/schema.ts';
import type { KnowledgeImports } from './service.ts';
import { createImportSchema, importQuerySchema, listImportsQuerySchema, syncImportSchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface ImportRouteDeps {
  db: Kysely<Database>;
  knowledgeImports: KnowledgeImports;
}

export function importRoutes(deps: ImportRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const importId = (c: AppContext) => pathId(c, 'import_id', 'kbi', 'knowledge import');

  /** 202 with the import at once, or 200 when its job has finished (`?wait=true`). */
  const answer = async (c: AppContext, id: string, started: { done: Promise<void> }, status: 202) => {
    const { wait } = readQuery<{ wait: boolean }>(c, importQuerySchema);
    if (!wait) return ok(c, await deps.knowledgeImports.get(accountId(c), id), status);
    await started.done;
    return ok(c, await deps.knowledgeImports.get(accountId(c), id), 200);
  };

  router.post('/', idempotent(deps.db), async (c) => {
    readQuery(c, importQuerySchema);
    const body = await readJson<CreateKnowledgeImportRequest>(c, createImportSchema);
    const started = await deps.knowledgeImports.create(accountId(c), body);
    return answer(c, started.item.id, started, 202);
  });
  router.get('/', async (c) => {
    const query = readQuery<{ limit: number; cursor?: string }>(c, listImportsQuerySchema);
    return ok(c, await deps.knowledgeImports.list(accountId(c), query));
  });
  router.get('/:import_id', async (c) => ok(c, await deps.knowledgeImports.get(accountId(c), importId(c))));
  router.post('/:import_id/sync', idempotent(deps.db), async (c) => {
    const id = importId(c);
    readQuery(c, importQuerySchema);
    const body = await readJson<SyncKnowledgeImportRequest>(c, syncImportSchema, { optional: true });
    const started = await deps.knowledgeImports.sync(accountId(c), id, body);
    return answer(c, id, started, 202);
  });
  router.delete('/:import_id', async (c) => ok(c, await deps.knowledgeImports.delete(accountId(c), importId(c))));
  return router;
}
