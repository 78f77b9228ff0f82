/**
 * Bots: CRUD plus training. Training runs in the NLU worker before the write is answered, so a
 * `201`/`200` with `status: "ready"` means the bot answers with the new model right away.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  Bot,
  BotAppearance,
  BotStatus,
  Channel,
  CreateBotRequest,
  Deletion,
  IntentClassification,
  IntentQuality,
  KnowledgeScope,
  Page,
  TrainingData,
  UpdateBotRequest,
} from '../../../src/client/types.ts';
import { deleteConversationOwner } from '../conversations/purge.ts';
import { SharedRowRead } from '../db/batcher.ts';
import { iso, json } from '../db/json.ts';
import type { BotsTable, Database } from '../db/schema.ts';
import { notFound, ServiceError } from '../http/errors.ts';
import { createdKey, newestFirstPage } from '../http/pagination.ts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { attachmentSettingsOf, changedSettings } from '../attachments/settings.ts';
import { checkTraining, NluTrainingError, resolveThreshold, type ModelVersion, type NluEngine } from '../nlu/index.ts';

/** A bot's row without its model (megabytes of JSON). */
export type BotRow = Omit<Selectable<BotsTable>, 'nlu_model' | 'training_fallback'>;
/**
 * A bot's row as turns read it: without its model and its training (hundreds of KB of JSON, nearly
 * all examples), read only when the NLU cache lacks this model version (`modelVersion`); the
 * training's fallback settings (`training_fallback`) answer a bot that has no model.
 */
export type BotTurnRow = Omit<Selectable<BotsTable>, 'nlu_model' | 'training'>;
const COLUMNS = [
  'id', 'account_id', 'name', 'description', 'language', 'status', 'quick_replies', 'channels',
  'knowledge', 'created_at', 'updated_at', 'avatar_url', 'attachments', 'appearance', 'trained_at',
] as const satisfies readonly Exclude<keyof BotsTable, 'nlu_model' | 'training' | 'training_fallback'>[];
const TURN_COLUMNS = [...COLUMNS, 'training_fallback'] as const;
const BOT_COLUMNS = [...COLUMNS, 'training'] as const;

/** The model version a ready bot answers with: a retrained bot never reads an older model's parses. */
export function modelKeyOf(bot: Pick<BotRow, 'id' | 'trained_at' | 'updated_at'>): string {
  return `${bot.id}:${iso(bot.trained_at ?? bot.updated_at)}`;
}

const EMPTY_TRAINING: TrainingData = { intents: [] };

export function toBot(row: BotRow): Bot {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    language: row.language,
    status: row.status as BotStatus,
    training: (row.training ?? EMPTY_TRAINING) as TrainingData,
    quick_replies: row.quick_replies ?? [],
    channels: (row.channels ?? []) as Channel[],
    knowledge: knowledgeScopeOf(row),
    avatar_url: row.avatar_url,
    attachments: attachmentSettingsOf(row.attachments),
    appearance: (row.appearance ?? {}) as BotAppearance,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    trained_at: iso(row.trained_at),
  };
}

/** The bot's knowledge scope, `{tags}` always listed; null: its answers use no knowledge. */
export function knowledgeScopeOf(row: Pick<BotRow, 'knowledge'>): KnowledgeScope | null {
  return row.knowledge ? { tags: [], ...(row.knowledge as KnowledgeScope) } : null;
}

/** As stored: the same shape as an agent's scope, or SQL null. */
function storedScope(scope: KnowledgeScope | null | undefined) {
  return scope ? json({ tags: [], ...scope }) : null;
}

/** Semantic checks beyond the schema, as a 400 naming the offending field. */
export function assertTrainingUsable(training: TrainingData, param = 'training'): void {
  const problems = checkTraining(training);
  if (problems.length === 0) return;
  const details = problems.map((p) => ({ path: `/${param}${p.path}`, message: p.message }));
  const first = details[0]!;
  throw new ServiceError('validation_failed', `Invalid body: ${first.path.slice(1).replaceAll('/', '.')} ${first.message}.`, {
    param: first.path.slice(1).replaceAll('/', '.'),
    details,
  });
}

function trainingFailure(error: unknown): ServiceError {
  if (error instanceof NluTrainingError) {
    if (error.kind === 'invalid') return new ServiceError('validation_failed', error.message, { param: 'training' });
    return new ServiceError('service_unavailable', `${error.message} The bot is marked failed; retry later.`);
  }
  return new ServiceError('internal_error', 'Training failed unexpectedly.', { cause: error });
}

const noModelYet = () => new ServiceError('conflict', 'This bot has no trained model yet; train it (PUT with training) first.', { param: 'bot_id' });

export class BotService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly nlu: NluEngine,
    private readonly logger: Logger,
    /** The service's attachment limit (`AI_CHAT_MAX_ATTACHMENT_BYTES`): no bot may promise more. */
    private readonly maxAttachmentBytes = 10 * 1024 * 1024,
  ) {}

  /**
   * The row as a turn reads it (see `BotTurnRow`), or 404 for an id that is not this account's.
   * Shared with concurrent callers: read only.
   */
  async getRow(accountId: string, botId: string): Promise<BotTurnRow> {
    const row = await this.turnRows.get(accountId, botId);
    if (!row) throw notFound('bot_id', 'bot');
    return row;
  }

  /** Every turn of a bot reads its row: concurrent turns of one bot share the select. */
  private readonly turnRows = new SharedRowRead((accountId, botId) =>
    this.db.selectFrom('bots').select(TURN_COLUMNS).where('account_id', '=', accountId).where('id', '=', botId).executeTakeFirst(),
  );

  /** The row with its training, or 404. */
  private async row(accountId: string, botId: string): Promise<BotRow> {
    const row = await this.db.selectFrom('bots').select(BOT_COLUMNS).where('account_id', '=', accountId).where('id', '=', botId).executeTakeFirst();
    if (!row) throw notFound('bot_id', 'bot');
    return row;
  }

  /** The bot's stored model (null when it has none). */
  async model(accountId: string, botId: string): Promise<unknown> {
    const row = await this.db.selectFrom('bots').select('nlu_model').where('account_id', '=', accountId).where('id', '=', botId).executeTakeFirst();
    return row?.nlu_model ?? null;
  }

  /**
   * The model version `modelKey` names, with the training it was trained on. A bot retrained
   * since the turn read its row gives no model (that turn gets the fallback; nothing is cached
   * under the older key), so a version's cache entry always holds that version's responses.
   */
  async modelVersion(accountId: string, botId: string, modelKey: string): Promise<ModelVersion> {
    const row = await this.db
      .selectFrom('bots')
      .select(['id', 'nlu_model', 'training', 'trained_at', 'updated_at'])
      .where('account_id', '=', accountId)
      .where('id', '=', botId)
      .executeTakeFirst();
    if (!row || modelKeyOf(row) !== modelKey) return { model: null, training: EMPTY_TRAINING };
    return { model: row.nlu_model, training: (row.training ?? EMPTY_TRAINING) as TrainingData };
  }

  async get(accountId: string, botId: string): Promise<Bot> {
    return toBot(await this.row(accountId, botId));
  }

  /** Newest first; the cursor is the last item's (created_at, id) at full database precision. */
  async list(accountId: string, page: { limit: number; cursor?: string }): Promise<Page<Bot>> {
    return newestFirstPage(
      this.db.selectFrom('bots').selectAll().select(createdKey).where('account_id', '=', accountId),
      page,
      toBot,
    );
  }

  async create(accountId: string, input: CreateBotRequest): Promise<Bot> {
    if (input.training) assertTrainingUsable(input.training);
    const language = input.language ?? 'en';
    const row = await this.db
      .insertInto('bots')
      .values({
        id: newId('bot'),
        account_id: accountId,
        name: input.name,
        description: input.description ?? '',
        language,
        status: input.training ? 'training' : 'untrained',
        training: json(input.training ?? EMPTY_TRAINING),
        quick_replies: json(input.quick_replies ?? []),
        channels: json(input.channels ?? []),
        knowledge: storedScope(input.knowledge),
        avatar_url: input.avatar_url ?? null,
        attachments: input.attachments ? json(changedSettings(null, input.attachments, this.maxAttachmentBytes)) : null,
        appearance: input.appearance ? json(input.appearance) : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!input.training) return toBot(row);
    return this.train(row, input.training, language);
  }

  /** Partial update. New training, or a new language with existing training, retrains first. */
  async update(accountId: string, botId: string, input: UpdateBotRequest): Promise<Bot> {
    const current = await this.row(accountId, botId);
    if (input.training) assertTrainingUsable(input.training);
    const language = input.language ?? current.language;
    const training = input.training ?? (current.training as TrainingData);
    const retrain = input.training !== undefined || (input.language !== undefined && input.language !== current.language);
    const changes: Record<string, unknown> = { updated_at: sql`now()` };
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description;
    if (input.language !== undefined) changes.language = input.language;
    if (input.training !== undefined) changes.training = json(input.training);
    if (input.quick_replies !== undefined) changes.quick_replies = json(input.quick_replies);
    if (input.channels !== undefined) changes.channels = json(input.channels);
    if (input.knowledge !== undefined) changes.knowledge = storedScope(input.knowledge);
    if (input.avatar_url !== undefined) changes.avatar_url = input.avatar_url;
    if (input.attachments !== undefined) changes.attachments = json(changedSettings(current.attachments, input.attachments, this.maxAttachmentBytes));
    if (input.appearance !== undefined) changes.appearance = json(input.appearance);
    if (retrain) changes.status = training.intents.length > 0 ? 'training' : 'untrained';
    if (retrain && training.intents.length === 0) {
      changes.nlu_model = null;
      changes.trained_at = null;
    }
    const row = await this.db
      .updateTable('bots')
      .set(changes)
      .where('account_id', '=', accountId)
      .where('id', '=', botId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('bot_id', 'bot');
    if (!retrain || training.intents.length === 0) return toBot(row);
    return this.train(row, training, language);
  }

  /** The cross-validation report of the bot's model; 409 while it has none (untrained, failed, or retraining after an upgrade). */
  async quality(accountId: string, botId: string): Promise<IntentQuality> {
    const row = await this.getRow(accountId, botId);
    const quality = row.status === 'ready' ? this.nlu.quality(await this.model(accountId, botId)) : null;
    if (!quality) throw noModelYet();
    return quality;
  }

  /**
   * How the bot's model reads `text` (the owner's "try it"): the three most probable intents and
   * whether a turn would fall back, decided as `answerWithIntent` decides. Only the model is read
   * (through the same cache as turns): no conversation is stored, no analytics count it. 409
   * while the bot has no model.
   */
  async classify(accountId: string, botId: string, text: string): Promise<IntentClassification> {
    const row = await this.getRow(accountId, botId);
    if (row.status !== 'ready') throw noModelYet();
    const key = modelKeyOf(row);
    const { answers, ...parsed } = await this.nlu.parseVersion(() => this.modelVersion(accountId, botId, key), text, key, 3);
    const threshold = resolveThreshold(answers, parsed.threshold);
    const intent = parsed.intent ? answers.intents.find((i) => i.name === parsed.intent) : undefined;
    return {
      intents: (parsed.ranking ?? []).map((r) => ({ name: r.intent, confidence: r.confidence })),
      fallback: !intent?.responses.length || parsed.score < threshold,
      threshold,
    };
  }

  /**
   * Retrains, one at a time, the ready bots whose model this NLU engine no longer reads (trained
   * before an upgrade). Meanwhile they answer with the fallback. Returns how many were retrained.
   */
  async retrainOutdated(signal?: AbortSignal): Promise<number> {
    const rows = await this.db.selectFrom('bots').select(['id', 'account_id', 'nlu_model']).where('status', '=', 'ready').execute();
    let retrained = 0;
    for (const { id, account_id: accountId, nlu_model: model } of rows) {
      if (signal?.aborted) break;
      if (!model || this.nlu.isCurrent(model)) continue;
      const row = await this.db.selectFrom('bots').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      // Deleted, or updated (and so retrained) since the list was read.
      if (!row || row.status !== 'ready' || this.nlu.isCurrent(row.nlu_model)) continue;
      await this.train(row, row.training as TrainingData, row.language).then(
        () => retrained++,
        (error: unknown) => this.logger.error('bot not retrained after an upgrade', { bot_id: id, error: String(error) }),
      );
    }
    return retrained;
  }

  /**
   * Deletes the bot with its conversations and their messages, and counts the deletion (see
   * `deleteConversationOwner`); then drops its loaded model from the NLU cache. 404 when not this account's.
   */
  async delete(accountId: string, botId: string): Promise<Deletion> {
    const deletion = await deleteConversationOwner(this.db, accountId, { bot: botId });
    this.nlu.forget(botId);
    return deletion;
  }

  /** Trains in the worker, then stores the model (`ready`) or marks the bot `failed` and throws. */
  private async train(row: BotRow, training: TrainingData, language: string): Promise<Bot> {
    try {
      const { model, stats } = await this.nlu.train(language, training);
      this.logger.debug('bot trained', { bot_id: row.id, ...stats });
      const updated = await this.db
        .updateTable('bots')
        .set({ status: 'ready', nlu_model: json(model), trained_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toBot(updated);
    } catch (error) {
      await this.db
        .updateTable('bots')
        .set({ status: 'failed', nlu_model: null, updated_at: sql`now()` })
        .where('id', '=', row.id)
        .execute();
      throw trainingFailure(error);
    }
  }
}
