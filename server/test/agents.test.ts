// AI agents end to end over a real PGlite and the real NLU engine: CRUD, validation, training jobs
// (metrics, 409 while active, interrupted jobs after a crash), tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTrainingSet, shuffle } from '../src/agents/training-set.ts';
import { createService, type Service } from '../src/index.ts';
import { caller, memoryService, type Caller } from './support/api.ts';
import { holdTraining } from './support/hold-training.ts';
import { testDatabase } from './support/test-database.ts';

let service: Service;
let call: Caller;

before(async () => {
  service = await memoryService();
  call = caller(service, (await service.createAccount()).apiKey);
});
after(() => service.close());

const EXAMPLES = [
  ...['what does it cost', 'how much is the plan', 'price of the subscription', 'is it expensive', 'pricing please'].map(
    (input) => ({ input, output: 'Plans start at 20 dollars a month.' }),
  ),
  ...['hello there', 'hi', 'good morning', 'hey', 'greetings'].map((input) => ({ input, output: 'Hello! How can I help?' })),
  ...['how do I install it', 'installation steps', 'set up the widget', 'add the widget to my site', 'install guide'].map(
    (input) => ({ input, output: 'Add one script tag to your page.' }),
  ),
];

async function createAgent(body: Record<string, unknown> = {}, as: Caller = call) {
  const res = await as('/v1/agents', { body: { name: 'Support agent', examples: EXAMPLES, ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

describe('agents CRUD', () => {
  it('creates with defaults, reads, lists and partially updates', async () => {
    const agent = await createAgent({ instructions: 'Be brief.', model: { temperature: 0.3 } });
    assert.match(agent.id, /^agt_/);
    assert.equal(agent.status, 'draft');
    assert.equal(agent.language, 'en');
    assert.deepEqual(agent.model, { provider: 'builtin', temperature: 0.3 });
    assert.deepEqual(agent.knowledge, { tags: [] });
    assert.deepEqual(agent.training, { intents: [] });
    assert.equal(agent.latest_job_id, null);
    assert.equal(agent.examples.length, EXAMPLES.length);

    assert.deepEqual((await call(`/v1/agents/${agent.id}`)).body.data, agent);
    const updated = await call(`/v1/agents/${agent.id}`, { method: 'PUT', body: { description: 'Answers sales questions', knowledge: { tags: ['sales'] } } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.data.description, 'Answers sales questions');
    assert.deepEqual(updated.body.data.knowledge, { tags: ['sales'] });
    assert.equal(updated.body.data.instructions, 'Be brief.');

    const list = await call('/v1/agents?limit=1');
    assert.equal(list.body.data.items.length, 1);
    assert.equal(list.body.data.items[0].id, agent.id, 'newest first');
  });

  it('validates the body', async () => {
    const cases: [unknown, string, string][] = [
      [{}, 'validation_failed', 'name'],
      [{ name: '' }, 'validation_failed', 'name'],
      [{ name: 'a', instructions: 'x'.repeat(8001) }, 'validation_failed', 'instructions'],
      [{ name: 'a', model: { temperature: 2.5 } }, 'validation_failed', 'model.temperature'],
      [{ name: 'a', model: { max_tokens: 0 } }, 'validation_failed', 'model.max_tokens'],
      [{ name: 'a', model: { provider: 'magic' } }, 'validation_failed', 'model.provider'],
      [{ name: 'a', examples: [{ input: 'hi' }] }, 'validation_failed', 'examples.0.output'],
      [{ name: 'a', examples: Array.from({ length: 501 }, () => ({ input: 'a', output: 'b' })) }, 'validation_failed', 'examples'],
      [{ name: 'a', training: { intents: [{ name: 'x', examples: ['{city}'], responses: ['ok'] }] } }, 'validation_failed', 'training.intents.0.examples.0'],
      [{ name: 'a', owner: 'me' }, 'unknown_parameter', 'owner'],
    ];
    for (const [body, code, param] of cases) {
      const res = await call('/v1/agents', { body });
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 60));
      assert.equal(res.body.error.code, code);
      assert.equal(res.body.error.param, param);
    }
    const agent = await createAgent();
    assert.equal((await call(`/v1/agents/${agent.id}`, { method: 'PUT', body: {} })).body.error.code, 'validation_failed');
  });

  it('answers 404 for unknown agents and other tenants\' agents, 405 for other methods', async () => {
    const agent = await createAgent();
    const stranger = caller(service, (await service.createAccount()).apiKey);
    assert.equal((await stranger(`/v1/agents/${agent.id}`)).body.error.code, 'resource_not_found');
    assert.equal((await stranger(`/v1/agents/${agent.id}`, { method: 'PUT', body: { name: 'x' } })).status, 404);
    assert.equal((await stranger(`/v1/agents/${agent.id}/train`, { method: 'POST' })).status, 404);
    assert.equal((await stranger(`/v1/agents/${agent.id}/jobs`)).status, 404);
    assert.equal((await stranger('/v1/agents')).body.data.items.length, 0);
    assert.equal((await call('/v1/agents/agt_unknown12345')).status, 404);
    const patch = await call(`/v1/agents/${agent.id}`, { method: 'PATCH', body: { name: 'x' } });
    assert.equal(patch.status, 405);
    assert.equal(patch.headers.get('allow'), 'GET, PUT, DELETE');
  });
});

describe('agent training', () => {
  it('trains to succeeded with metrics, stores the model, and lists the job', async () => {
    const agent = await createAgent();
    const res = await call(`/v1/agents/${agent.id}/train?wait=true`, { body: { holdout: 0.2 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const job = res.body.data;
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.equal(job.agent_id, agent.id);
    assert.equal(job.metrics.intents, 3);
    assert.equal(job.metrics.holdout_examples, 3);
    assert.equal(job.metrics.examples, 15, 'the served model learns from every example, held-out ones included');
    assert.ok(job.metrics.holdout_accuracy >= 0 && job.metrics.holdout_accuracy <= 1);
    assert.ok(job.started_at && job.finished_at);

    const after = (await call(`/v1/agents/${agent.id}`)).body.data;
    assert.equal(after.status, 'ready');
    assert.equal(after.latest_job_id, job.id);
    const runtime = await service.deps.agents.runtime(await accountOf(agent.id), agent.id);
    assert.equal(runtime.intents?.cacheKey, `${agent.id}:${job.id}`);
    const version = await runtime.intents!.read();
    assert.ok(version.model, 'the model is stored on the agent');
    const parsed = await service.deps.nlu.parse(version.model, 'en', 'how much does the plan cost');
    assert.equal(parsed.intent, 'example.1');
    // The responses the model was trained with are kept with it, independent of later edits.
    assert.deepEqual(version.training.intents.find((i) => i.name === 'example.1')?.responses, ['Plans start at 20 dollars a month.']);
    await call(`/v1/agents/${agent.id}`, { method: 'PUT', body: { examples: [{ input: 'x', output: 'Changed.' }] } });
    const edited = await service.deps.agents.runtime(await accountOf(agent.id), agent.id);
    assert.deepEqual((await edited.intents!.read()).training, version.training);
    assert.equal((await call(`/v1/agents/${agent.id}`)).body.data.examples.length, 1);

    const jobs = await call(`/v1/agents/${agent.id}/jobs`);
    assert.deepEqual(jobs.body.data.items.map((j: { id: string }) => j.id), [job.id]);
    assert.deepEqual((await call(`/v1/agents/${agent.id}/jobs/${job.id}`)).body.data, job);
    assert.equal((await call(`/v1/agents/${agent.id}/jobs/job_unknown12345`)).status, 404);
  });

  it('answers 202 with a queued job at once, then the job finishes', async () => {
    const agent = await createAgent();
    const training = holdTraining(service.deps.nlu); // the job stays in progress until released
    let res;
    try {
      res = await call(`/v1/agents/${agent.id}/train`, { method: 'POST' });
      assert.equal(res.status, 202);
      assert.equal(res.body.data.status, 'queued');
      assert.equal(res.body.data.metrics, null);
      assert.equal((await call(`/v1/agents/${agent.id}`)).body.data.status, 'training');
    } finally {
      training.release();
    }
    const final = await finished(agent.id, res.body.data.id);
    assert.equal(final.status, 'succeeded');
    assert.equal(final.metrics.holdout_examples, 3, 'default holdout 0.2 of 15 examples');
  });

  it('answers 409 conflict to a second train while one is active', async () => {
    const agent = await createAgent();
    const [a, b] = await Promise.all([
      call(`/v1/agents/${agent.id}/train`, { method: 'POST' }),
      call(`/v1/agents/${agent.id}/train`, { method: 'POST' }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [202, 409]);
    const conflict = a.status === 409 ? a : b;
    assert.equal(conflict.body.error.code, 'conflict');
    const started = a.status === 202 ? a : b;
    await finished(agent.id, started.body.data.id);
    // Once the job finished, training again is allowed.
    assert.equal((await call(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST' })).status, 200);
  });

  it('records a failed job for an agent with nothing to train', async () => {
    const agent = await createAgent({ examples: [] });
    const job = (await call(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST' })).body.data;
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'invalid_training');
    assert.equal((await call(`/v1/agents/${agent.id}`)).body.data.status, 'failed');
  });

  it('validates the train request', async () => {
    const agent = await createAgent();
    const res = await call(`/v1/agents/${agent.id}/train`, { body: { holdout: 0.9 } });
    assert.equal(res.body.error.param, 'holdout');
    assert.equal((await call(`/v1/agents/${agent.id}/train?wait=maybe`, { method: 'POST' })).body.error.param, 'wait');
  });

  it('holds out a deterministic share and keeps one example per intent', () => {
    const a = buildTrainingSet(EXAMPLES, { intents: [] }, 0.2, 'seed');
    const b = buildTrainingSet(EXAMPLES, { intents: [] }, 0.2, 'seed');
    assert.deepEqual(a, b);
    assert.equal(a.heldOut.length, 3);
    assert.notDeepEqual(shuffle([1, 2, 3, 4, 5, 6, 7, 8], 'x'), shuffle([1, 2, 3, 4, 5, 6, 7, 8], 'y'));
    const tiny = buildTrainingSet([{ input: 'a', output: 'A' }, { input: 'b', output: 'B' }], { intents: [] }, 0.5, 's');
    assert.equal(tiny.heldOut.length, 0, 'a single-example intent is never held out');
    const taken = buildTrainingSet([{ input: 'a', output: 'A' }], { intents: [{ name: 'example.1', examples: ['x'], responses: ['y'] }] }, 0, 's');
    assert.deepEqual(taken.training.intents.map((i) => i.name), ['example.1', 'example.2']);
  });
});

describe('interrupted training', () => {
  it('does not let a job with a dead heartbeat block the agent, and fails it as interrupted', async () => {
    const agent = await createAgent();
    const first = (await call(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST' })).body.data;
    // As another (crashed) process would leave it: running, heartbeat a minute old.
    await service.deps.db
      .updateTable('training_jobs')
      .set({ status: 'running', finished_at: null, heartbeat_at: new Date(Date.now() - 60_000) })
      .where('id', '=', first.id)
      .execute();
    const second = await call(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST' });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.data.status, 'succeeded');
    const old = (await call(`/v1/agents/${agent.id}/jobs/${first.id}`)).body.data;
    assert.equal(old.status, 'failed');
    assert.equal(old.error.code, 'interrupted');
    // A fresh heartbeat, by contrast, means a live run elsewhere: 409.
    await service.deps.db.updateTable('training_jobs').set({ status: 'running', finished_at: null, heartbeat_at: new Date() }).where('id', '=', first.id).execute();
    assert.equal((await call(`/v1/agents/${agent.id}/train`, { method: 'POST' })).status, 409);
    await service.deps.db.updateTable('training_jobs').set({ status: 'failed' }).where('id', '=', first.id).execute();
  });

  it('marks a job left running by a crashed process as failed (interrupted) on start', async () => {
    const database = await testDatabase({ persistent: true });
    const key = 'aicw_sk_interrupted-test-key-01';
    try {
      const first = await createService({ ...database.options, seed: false, logLevel: 'silent', apiKey: key });
      const api = caller(first, key);
      const agent = (await api('/v1/agents', { body: { name: 'A', examples: EXAMPLES } })).body.data;
      const job = (await api(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST' })).body.data;
      // Simulate a crash mid-run: the row says running (as the dead process left it). PGlite has one
      // process, so even a fresh heartbeat means a crash; processes may share a PostgreSQL server, so
      // there a start takes over only jobs whose heartbeat stopped long ago.
      const heartbeat = database.kind === 'postgres' ? new Date(Date.now() - 3_600_000) : new Date();
      await first.deps.db.updateTable('training_jobs').set({ status: 'running', metrics: null, finished_at: null, heartbeat_at: heartbeat }).where('id', '=', job.id).execute();
      await first.deps.db.updateTable('agents').set({ status: 'training' }).where('id', '=', agent.id).execute();
      await first.close();

      const second = await createService({ ...database.options, seed: false, logLevel: 'silent', apiKey: key });
      const api2 = caller(second, key);
      const after = (await api2(`/v1/agents/${agent.id}/jobs/${job.id}`)).body.data;
      assert.equal(after.status, 'failed');
      assert.equal(after.error.code, 'interrupted');
      assert.ok(after.finished_at);
      // The agent still has the model of the earlier successful run, so it stays ready.
      assert.equal((await api2(`/v1/agents/${agent.id}`)).body.data.status, 'ready');
      assert.equal((await api2(`/v1/agents/${agent.id}/train?wait=true`, { method: 'POST' })).body.data.status, 'succeeded');
      await second.close();
    } finally {
      await database.cleanup();
    }
  });
});

async function accountOf(agentId: string): Promise<string> {
  const row = await service.deps.db.selectFrom('agents').select('account_id').where('id', '=', agentId).executeTakeFirstOrThrow();
  return row.account_id;
}

/** The job as the API reads it once its run in this process has recorded its outcome. */
async function finished(agentId: string, jobId: string) {
  await service.deps.trainingJobs.runs.running(jobId);
  return (await call(`/v1/agents/${agentId}/jobs/${jobId}`)).body.data;
}
