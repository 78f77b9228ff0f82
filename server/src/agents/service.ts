/**
 * AI agents: CRUD over the `agents` table, and what the chat responder needs to answer as an agent
 * (`runtime`). Training lives in `jobs.ts`.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  Agent,
  AgentExample,
  AgentStatus,
  CreateAgentRequest,
  Deletion,
  FallbackSettings,
  IntentQuality,
  KnowledgeScope,
  ModelSettings,
  Page,
  TrainingData,
  UpdateAgentRequest,
} from '../../../src/client/types.ts';
import type { AgentsTable, Database } from '../db/schema.ts';
import { iso, json } from '../db/json.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { createdKey, newestFirstPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';
import { deleteConversationOwner } from '../conversations/purge.ts';
import type { ModelVersion, NluEngine, TrainedModel } from '../nlu/index.ts';
import { checkTraining } from '../nlu/training.ts';

type AgentRow = Selectable<AgentsTable>;

/**
 * What the chat responder needs to answer as an agent. Read on every turn, so without the agent's
 * examples, training and model (all of them large): the served model version is read only when the
 * NLU cache lacks it.
 */
export interface AgentRuntime {
  language: string;
  instructions: string;
  model: Agent['model'];
  knowledge: KnowledgeScope;
  /** The fallback settings of the agent's current training. */
  fallback: FallbackSettings | null;
  /**
   * The served model version, null before the first successful training. It answers from the
   * training data the model was trained on (examples turned into `example.N` intents, plus the
   * agent's own), not the agent's current examples, which may have been edited since.
   */
  intents: TrainedModel | null;
}

const modelSettingsOf = (row: Pick<AgentRow, 'model'>): Agent['model'] => {
  const model = (row.model ?? {}) as ModelSettings;
  return { ...model, provider: model.provider ?? 'builtin' };
};
const knowledgeOf = (row: Pick<AgentRow, 'knowledge'>): KnowledgeScope => ({ tags: [], ...((row.knowledge ?? {}) as KnowledgeScope) });

export function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    language: row.language,
    model: modelSettingsOf(row),
    knowledge: knowledgeOf(row),
    examples: (row.examples ?? []) as AgentExample[],
    training: (row.training ?? { intents: [] }) as TrainingData,
    status: row.status as AgentStatus,
    latest_job_id: row.latest_job_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Training data problems a schema cannot see (unknown `{entity}`, duplicate names, unsafe regexes). */
function assertUsableTraining(training: TrainingData | undefined): void {
  if (!training) return;
  const problems = checkTraining(training);
  if (problems.length === 0) return;
  const first = problems[0]!;
  const param = `training${first.path.replaceAll('/', '.')}`;
  throw new ServiceError('validation_failed', `Invalid body: ${param} ${first.message}.`, {
    param,
    details: problems.map((p) => ({ path: `/training${p.path}`, message: p.message })),
  });
}

export class AgentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly nlu: NluEngine,
  ) {}

  async create(accountId: string, input: CreateAgentRequest): Promise<Agent> {
    assertUsableTraining(input.training);
    const row = await this.db
      .insertInto('agents')
      .values({
        id: newId('agt'),
        account_id: accountId,
        name: input.name,
        description: input.description ?? '',
        instructions: input.instructions ?? '',
        language: input.language ?? 'en',
        model: json({ provider: 'builtin', ...input.model }),
        knowledge: json({ tags: [], ...input.knowledge }),
        examples: json(input.examples ?? []),
        training: json(input.training ?? { intents: [] }),
        status: 'draft',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAgent(row);
  }

  async get(accountId: string, agentId: string): Promise<Agent> {
    return toAgent(await this.row(accountId, agentId));
  }

  /** What answering a chat message as this agent needs (see `AgentRuntime`). */
  async runtime(accountId: string, agentId: string): Promise<AgentRuntime> {
    const row = await this.db
      .selectFrom('agents')
      .select(['id', 'language', 'instructions', 'model', 'knowledge', 'model_job_id', 'training_fallback'])
      .where('account_id', '=', accountId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    if (!row) throw notFound('agent_id', 'agent');
    const jobId = row.model_job_id;
    return {
      language: row.language,
      instructions: row.instructions,
      model: modelSettingsOf(row),
      knowledge: knowledgeOf(row),
      fallback: row.training_fallback as FallbackSettings | null,
      // A training job writes the model, its job id (the version) and its training together.
      intents: jobId ? { read: () => this.modelVersion(accountId, agentId, jobId), language: row.language, cacheKey: `${row.id}:${jobId}` } : null,
    };
  }

  /** The model the job `jobId` trained, with its training; none once another job's model replaced it. */
  private async modelVersion(accountId: string, agentId: string, jobId: string): Promise<ModelVersion> {
    const row = await this.db
      .selectFrom('agents')
      .select(['nlu_model', 'model_training'])
      .where('account_id', '=', accountId)
      .where('id', '=', agentId)
      .where('model_job_id', '=', jobId)
      .executeTakeFirst();
    return { model: row?.nlu_model ?? null, training: (row?.model_training as TrainingData | null) ?? { intents: [] } };
  }

  /** The cross-validation report of the agent's served model; 409 while it has none. */
  async quality(accountId: string, agentId: string): Promise<IntentQuality> {
    const quality = this.nlu.quality((await this.row(accountId, agentId)).nlu_model);
    if (!quality) throw new ServiceError('conflict', 'This agent has no trained model yet; train it first.', { param: 'agent_id' });
    return quality;
  }

  /** Newest first, keyset-paginated on (created_at, id). */
  async list(accountId: string, query: { limit: number; cursor?: string }): Promise<Page<Agent>> {
    return newestFirstPage(
      this.db.selectFrom('agents').selectAll().select(createdKey).where('account_id', '=', accountId),
      query,
      toAgent,
    );
  }

  /** A partial update. Nested objects (`model`, `knowledge`) are replaced as a whole, like every field. */
  async update(accountId: string, agentId: string, input: UpdateAgentRequest): Promise<Agent> {
    assertUsableTraining(input.training);
    const row = await this.db
      .updateTable('agents')
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.instructions !== undefined && { instructions: input.instructions }),
        ...(input.language !== undefined && { language: input.language }),
        ...(input.model !== undefined && { model: json({ provider: 'builtin', ...input.model }) }),
        ...(input.knowledge !== undefined && { knowledge: json({ tags: [], ...input.knowledge }) }),
        ...(input.examples !== undefined && { examples: json(input.examples) }),
        ...(input.training !== undefined && { training: json(input.training) }),
        updated_at: sql<Date>`now()`,
      })
      .where('account_id', '=', accountId)
      .where('id', '=', agentId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('agent_id', 'agent');
    return toAgent(row);
  }

  /**
   * Deletes the agent with its training jobs, its conversations and their messages, and counts the
   * deletion (see `deleteConversationOwner`); then drops its loaded models from the NLU cache. A
   * training run still going finds the agent gone and records nothing. 404 when not this account's.
   */
  async delete(accountId: string, agentId: string): Promise<Deletion> {
    const deletion = await deleteConversationOwner(this.db, accountId, { agent: agentId });
    this.nlu.forget(agentId);
    return deletion;
  }

  private async row(accountId: string, agentId: string): Promise<AgentRow> {
    const row = await this.db
      .selectFrom('agents')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    if (!row) throw notFound('agent_id', 'agent');
    return row;
  }
}
