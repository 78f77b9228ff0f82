/**
 * Training jobs of agents: queued → running → succeeded | failed.
 *
 * A job row is created (with the agent switched to `training`) in one transaction; the run happens in
 * the background of this process, the CPU-bound part in the NLU engine's worker thread. At most one
 * job per agent is active — checked in the transaction and enforced by a partial unique index, so a
 * second process cannot start one either. A running job touches `heartbeat_at`; on start-up, jobs a
 * dead process left behind are marked failed with error code `interrupted`, never succeeded.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Page, TrainingData, TrainingJob, TrainingJobStatus, TrainingMetrics } from '../../../src/client/types.ts';
import type { Database, TrainingJobsTable } from '../db/schema.ts';
import { BackgroundRuns, type JobTimingOptions } from '../jobs/background.ts';
import { iso, json } from '../db/json.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { createdKey, newestFirstPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { NluTrainingError, type NluEngine } from '../nlu/index.ts';
import { buildTrainingSet } from './training-set.ts';

export const DEFAULT_HOLDOUT = 0.2;

export type TrainingJobsOptions = JobTimingOptions;

type JobRow = Selectable<TrainingJobsTable>;

export function toJob(row: JobRow): TrainingJob {
  return {
    id: row.id,
    agent_id: row.agent_id,
    status: row.status as TrainingJobStatus,
    metrics: (row.metrics as TrainingMetrics | null) ?? null,
    error: (row.error as TrainingJob['error']) ?? null,
    created_at: iso(row.created_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

const ACTIVE = ['queued', 'running'] as const;

class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class TrainingJobs {
  /** This process's runs; `runs.running(jobId)` settles once a job run here has recorded its outcome. */
  readonly runs: BackgroundRuns;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly nlu: NluEngine,
    private readonly logger: Logger,
    options: TrainingJobsOptions = {},
  ) {
    this.runs = new BackgroundRuns(options);
  }

  /**
   * Queues a training run and starts it. `done` settles when the job reached its final state (it
   * never rejects: failures are recorded in the job). 409 `conflict` while another job is active.
   */
  async start(accountId: string, agentId: string, holdout = DEFAULT_HOLDOUT): Promise<{ job: TrainingJob; done: Promise<void> }> {
    if (this.runs.closed) throw new ServiceError('service_unavailable', 'The service is shutting down; retry shortly.');
    let job: JobRow;
    try {
      job = await this.db.transaction().execute(async (trx) => {
        const agent = await trx
          .selectFrom('agents')
          .select('id')
          .where('account_id', '=', accountId)
          .where('id', '=', agentId)
          .forUpdate()
          .executeTakeFirst();
        if (!agent) throw notFound('agent_id', 'agent');
        await this.refuseIfActive(trx, agentId);
        const row = await trx
          .insertInto('training_jobs')
          .values({ id: newId('job'), account_id: accountId, agent_id: agentId, status: 'queued', holdout, heartbeat_at: sql`now()` })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.updateTable('agents').set({ status: 'training', latest_job_id: row.id }).where('id', '=', agentId).execute();
        return row;
      });
    } catch (error) {
      // Another process won the race for the one active slot (partial unique index).
      if ((error as { code?: string }).code === '23505') throw conflict();
      throw error;
    }
    const beat = () => this.db.updateTable('training_jobs').set({ heartbeat_at: sql`now()` }).where('id', '=', job.id).execute();
    const done = this.runs.start(job.id, beat, () => this.run(job));
    return { job: toJob(job), done };
  }

  async get(accountId: string, agentId: string, jobId: string): Promise<TrainingJob> {
    const row = await this.db
      .selectFrom('training_jobs')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('agent_id', '=', agentId)
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (!row) throw notFound('job_id', 'training job');
    return toJob(row);
  }

  /** Newest first. 404 when the agent is not this account's. */
  async list(accountId: string, agentId: string, query: { limit: number; cursor?: string }): Promise<Page<TrainingJob>> {
    const agent = await this.db
      .selectFrom('agents')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    if (!agent) throw notFound('agent_id', 'agent');
    return newestFirstPage(
      this.db.selectFrom('training_jobs').selectAll().select(createdKey).where('agent_id', '=', agentId),
      query,
      toJob,
    );
  }

  /** Marks jobs left active by a dead process as failed (`interrupted`). Returns how many. */
  async recoverInterrupted(): Promise<number> {
    const failed = await this.db
      .updateTable('training_jobs')
      .set({
        status: 'failed',
        finished_at: sql`now()`,
        error: json({ code: 'interrupted', message: 'The service stopped before this training finished; train again.' }),
      })
      .where('status', 'in', ACTIVE)
      .where(this.runs.abandoned())
      .returning(['id', 'agent_id'])
      .execute();
    for (const job of failed) await this.settleAgent(this.db, job.agent_id, job.id);
    if (failed.length) this.logger.info('interrupted training jobs marked failed', { jobs: failed.map((j) => j.id) });
    return failed.length;
  }

  /**
   * Queues, one at a time, a training job for each agent whose model this NLU engine no longer
   * reads (trained before an upgrade); meanwhile the agent answers without intents. Returns how many ran.
   */
  async retrainOutdated(): Promise<number> {
    const rows = await this.db.selectFrom('agents').select(['id', 'account_id', 'nlu_model']).where('nlu_model', 'is not', null).execute();
    let retrained = 0;
    for (const row of rows) {
      if (this.nlu.isCurrent(row.nlu_model) || this.runs.closed) continue;
      try {
        const { done } = await this.start(row.account_id, row.id);
        await done;
        retrained++;
      } catch (error) {
        // Deleted meanwhile, or already training (its job retrains it anyway).
        if (!(error instanceof ServiceError)) this.logger.error('agent not retrained after an upgrade', { agent_id: row.id, error: String(error) });
      }
    }
    return retrained;
  }

  /** Stops accepting jobs and waits for the running ones to record their outcome. */
  async close(): Promise<void> {
    await this.runs.close();
  }

  private async refuseIfActive(trx: Transaction<Database>, agentId: string): Promise<void> {
    const active = await trx
      .selectFrom('training_jobs')
      .select(['id', this.runs.staleHeartbeat().as('stale')])
      .where('agent_id', '=', agentId)
      .where('status', 'in', ACTIVE)
      .executeTakeFirst();
    if (!active) return;
    // A job whose process died (stale heartbeat, not run here) must not block the agent forever.
    if (active.stale && !this.runs.has(active.id)) {
      await trx
        .updateTable('training_jobs')
        .set({
          status: 'failed',
          finished_at: sql`now()`,
          error: json({ code: 'interrupted', message: 'The process running this training stopped; it was not finished.' }),
        })
        .where('id', '=', active.id)
        .execute();
      return;
    }
    throw conflict();
  }

  private async run(job: JobRow): Promise<void> {
    try {
      const outcome = await this.train(job).then(
        (result) => ({ ...result, failure: null }),
        (error: unknown) => ({ metrics: null, model: null, training: null, failure: this.toFailure(error, job.id) }),
      );
      await this.db.transaction().execute(async (trx) => {
        // The agent's row first, as a delete of the agent locks it first (conversations/purge.ts):
        // locking the job's row first deadlocked with a delete on PostgreSQL (each waited for the
        // other's row), and the delete could be the one aborted, answering 500.
        const agent = await trx.selectFrom('agents').select('id').where('id', '=', job.agent_id).forUpdate().executeTakeFirst();
        // The model and the job's success are recorded together, or not at all, and only while the
        // job is still active: another instance may have failed it as interrupted (its heartbeat
        // went stale) and started the next one, whose outcome this one must not overwrite.
        const recorded = agent && (await trx
          .updateTable('training_jobs')
          .set({
            status: outcome.failure ? 'failed' : 'succeeded',
            metrics: outcome.metrics ? json(outcome.metrics) : null,
            error: outcome.failure ? json({ code: outcome.failure.code, message: outcome.failure.message }) : null,
            finished_at: sql`now()`,
          })
          .where('id', '=', job.id)
          .where('status', 'in', ACTIVE)
          .executeTakeFirst());
        // The agent was deleted while this ran (its jobs went with it), or the job was ended
        // elsewhere: nothing to record, and the model this run loaded for its held-out check must
        // not stay cached.
        if (!recorded || recorded.numUpdatedRows === 0n) {
          this.nlu.forget(job.agent_id);
          return;
        }
        if (outcome.model) {
          await trx
            .updateTable('agents')
            .set({ nlu_model: json(outcome.model), model_job_id: job.id, model_training: json(outcome.training) })
            .where('id', '=', job.agent_id)
            .execute();
        }
        await this.settleAgent(trx, job.agent_id, job.id);
      });
    } catch (error) {
      // The database went away (shutdown): the job stays active and start-up recovery fails it.
      this.logger.error('training job outcome not recorded', { job_id: job.id, error: String(error) });
    }
  }

  /** Trains and evaluates held-out examples. Throws on any failure. */
  private async train(job: JobRow): Promise<{ metrics: TrainingMetrics; model: unknown; training: TrainingData }> {
    // The claim: only a job still queued starts running (one ended meanwhile elsewhere is not run).
    const claimed = await this.db
      .updateTable('training_jobs')
      .set({ status: 'running', started_at: sql`now()` })
      .where('id', '=', job.id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) throw new JobFailure('interrupted', 'This training job was ended before it started.');
    const agent = await this.db
      .selectFrom('agents')
      .select(['id', 'language', 'examples', 'training'])
      .where('id', '=', job.agent_id)
      .executeTakeFirst();
    if (!agent) throw new JobFailure('agent_deleted', 'The agent was deleted before this training started.');
    const examples = (agent.examples ?? []) as { input: string; output: string }[];
    const own = (agent.training ?? { intents: [] }) as TrainingData;
    // Seeded by the agent and its data: the same data always holds out the same examples.
    const set = buildTrainingSet(examples, own, job.holdout, `${agent.id}\u0000${JSON.stringify(examples)}`);
    if (set.training.intents.length === 0) {
      throw new JobFailure('invalid_training', 'Nothing to train: add examples or training intents to the agent.');
    }
    const { model, stats } = await this.nlu.train(agent.language, set.training);
    const cacheKey = `${agent.id}:${job.id}`;
    let correct = 0;
    for (const example of set.heldOut) {
      const parsed = await this.nlu.parse(model, agent.language, example.input, { cacheKey });
      if (parsed.intent === example.intent) correct++;
    }
    // The held-out examples only measure; the model the agent serves learns from every example, so
    // nothing it was taught is missing from its answers. Intent names are the same in both sets
    // (they follow the examples' order, not what is held out).
    let served = { model, training: set.training, examples: stats.examples, trainingMs: stats.training_ms };
    if (set.heldOut.length) {
      const training = buildTrainingSet(examples, own, 0, '').training;
      const full = await this.nlu.train(agent.language, training);
      served = { model: full.model, training, examples: full.stats.examples, trainingMs: stats.training_ms + full.stats.training_ms };
    }
    const metrics: TrainingMetrics = {
      intents: set.intents,
      examples: served.examples,
      holdout_examples: set.heldOut.length,
      holdout_accuracy: set.heldOut.length ? Math.round((correct / set.heldOut.length) * 10_000) / 10_000 : null,
      training_ms: served.trainingMs,
    };
    return { metrics, model: served.model, training: served.training };
  }

  private toFailure(error: unknown, jobId: string): JobFailure {
    if (error instanceof JobFailure) return error;
    if (error instanceof NluTrainingError) {
      if (error.kind === 'invalid') return new JobFailure('invalid_training', error.message);
      if (error.kind === 'timeout') return new JobFailure('training_timeout', error.message);
      if (this.runs.closed) return new JobFailure('interrupted', 'The service stopped before this training finished; train again.');
    }
    this.logger.error('training job failed', { job_id: jobId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return new JobFailure('internal_error', 'Training failed unexpectedly; train again or contact support with the job id.');
  }

  /** After a job ended: the agent serves its model (`ready`) if it has one, else it is `failed`. */
  private async settleAgent(db: Kysely<Database>, agentId: string, jobId: string): Promise<void> {
    await db
      .updateTable('agents')
      .set({ status: sql`case when nlu_model is not null then 'ready' else 'failed' end` })
      .where('id', '=', agentId)
      .where('latest_job_id', '=', jobId)
      .execute();
  }
}

function conflict(): ServiceError {
  return new ServiceError('conflict', 'This agent is already training; wait for the current job to finish.', {
    param: 'agent_id',
  });
}
