/** `/v1/agents`: CRUD, training (202 + a job to poll, or `?wait=true`) and the jobs of an agent. */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { CreateAgentRequest, TrainAgentRequest, UpdateAgentRequest } from '../../../src/client/types.ts';
import { accountId, type AppContext, type AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { idempotent } from '../http/idempotency.ts';
import { pathId, readJson, readQuery } from '../http/validate.ts';
import { DEFAULT_HOLDOUT, type TrainingJobs } from './jobs.ts';
import type { AgentService } from './service.ts';
import type { Database } from '../db/schema.ts';
import { createAgentSchema, pageQuerySchema, trainAgentSchema, trainQuerySchema, updateAgentSchema } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface AgentRouteDeps {
  db: Kysely<Database>;
  agents: AgentService;
  trainingJobs: TrainingJobs;
}

type PageQuery = { limit: number; cursor?: string };

export function agentRoutes(deps: AgentRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const agentId = (c: AppContext) => pathId(c, 'agent_id', 'agt', 'agent');

  router.post('/', idempotent(deps.db), async (c) => {
    const body = await readJson<CreateAgentRequest>(c, createAgentSchema);
    return ok(c, await deps.agents.create(accountId(c), body), 201);
  });
  router.get('/', async (c) => ok(c, await deps.agents.list(accountId(c), readQuery<PageQuery>(c, pageQuerySchema))));

  router.get('/:agent_id', async (c) => ok(c, await deps.agents.get(accountId(c), agentId(c))));
  router.put('/:agent_id', async (c) => {
    const id = agentId(c);
    const body = await readJson<UpdateAgentRequest>(c, updateAgentSchema);
    return ok(c, await deps.agents.update(accountId(c), id, body));
  });
  router.delete('/:agent_id', async (c) => ok(c, await deps.agents.delete(accountId(c), agentId(c))));
  router.get('/:agent_id/quality', async (c) => ok(c, await deps.agents.quality(accountId(c), agentId(c))));

  // Idempotent: a retried train (same key) answers the first job instead of a 409.
  router.post('/:agent_id/train', idempotent(deps.db), async (c) => {
    const id = agentId(c);
    const { wait } = readQuery<{ wait: boolean }>(c, trainQuerySchema);
    const body = await readJson<TrainAgentRequest>(c, trainAgentSchema, { optional: true });
    const { job, done } = await deps.trainingJobs.start(accountId(c), id, body.holdout ?? DEFAULT_HOLDOUT);
    if (!wait) return ok(c, job, 202);
    await done;
    return ok(c, await deps.trainingJobs.get(accountId(c), id, job.id), 200);
  });

  router.get('/:agent_id/jobs', async (c) => {
    const id = agentId(c);
    return ok(c, await deps.trainingJobs.list(accountId(c), id, readQuery<PageQuery>(c, pageQuerySchema)));
  });

  router.get('/:agent_id/jobs/:job_id', async (c) => {
    const id = agentId(c);
    const jobId = pathId(c, 'job_id', 'job', 'training job');
    return ok(c, await deps.trainingJobs.get(accountId(c), id, jobId));
  });
  return router;
}
