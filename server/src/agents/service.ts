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
import type { NluEngine } from '../nlu/index.ts';
import { checkTraining } from '../nlu/training.ts';

type AgentRow = Selectable<AgentsTable>;

/** What the chat responder needs to answer as an agent. */
export interface AgentRuntime {
  agent: Agent;
  /** The trained NLU model (pass to `nlu.parse`), or null before the first successful training. */
  nluModel: unknown | null;
  /** Stable id of that model version, for `nlu.parse(…, { cacheKey })`. */
  modelKey: string | null;
  /**
   * The training data the model was trained on: its intents (examples turned into `example.N`
   * intents, plus the agent's own) with their responses. Use it — not the agent's current
   * `examples`, which may have been edited since — to answer an intent the model recognised.
   */
  modelTraining: TrainingData | null;
}

export function toAgent(row: AgentRow): Agent {
  const model = (row.model ?? {}) as ModelSettings;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    language: row.language,
    model: { ...model, provider: model.provider ?? 'builtin' },
    knowledge: { tags: [], ...((row.knowledge ?? {}) as KnowledgeScope) },
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

  /** The agent plus its trained model, for answering chat messages as this agent. */
  async runtime(accountId: string, agentId: string): Promise<AgentRuntime> {
    const row = await this.row(accountId, agentId);
    return {
      agent: toAgent(row),
      nluModel: row.nlu_model ?? null,
      modelKey: row.nlu_model && row.model_job_id ? `${row.id}:${row.model_job_id}` : null,
      modelTraining: row.nlu_model ? ((row.model_training as TrainingData | null) ?? null) : null,
    };
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
