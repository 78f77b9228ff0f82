/**
 * The parts of a delete that reach beyond the deleted row, shared by every resource's delete:
 * conversations with their messages, and the answers the Idempotency-Key middleware stored (a
 * stored answer holds a copy of the data, e.g. a created entry's content or a bot's reply, and
 * replaying it after the delete would hand the deleted data out again).
 */
import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Deletion } from '../../../src/client/types.ts';
import { recordDeletion, type Removed } from '../analytics/deletions.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

/** Which conversations: one, or every conversation of a bot or of an agent. */
export type ConversationScope = { conversationId: string } | { botId: string } | { agentId: string };

/** The `conversation_id` of a stored answer (chat and bot replies carry it in `data`). */
const STORED_CONVERSATION_ID = '"conversation_id":"(conv_[0-9A-Za-z]+)"';

/** The column and value that select the conversations of `scope`. */
function scopeColumn(scope: ConversationScope): ['id' | 'bot_id' | 'agent_id', string] {
  if ('conversationId' in scope) return ['id', scope.conversationId];
  if ('botId' in scope) return ['bot_id', scope.botId];
  return ['agent_id', scope.agentId];
}

function conversationsIn(trx: Transaction<Database>, accountId: string, scope: ConversationScope) {
  const [column, value] = scopeColumn(scope);
  return trx.selectFrom('conversations').select('id').where('account_id', '=', accountId).where(column, '=', value);
}

/**
 * Deletes stored Idempotency-Key answers of this account that name `id` (the deleted object's id,
 * quoted as in JSON; or any of several ids, in one statement) or, with `scope`, any of those
 * conversations. Runs before the conversations themselves are deleted. A retry with such a key then
 * runs again instead of replaying the copy.
 */
export async function forgetStoredAnswers(
  trx: Transaction<Database>,
  accountId: string,
  id: string | readonly string[],
  scope?: ConversationScope,
): Promise<void> {
  const ids = typeof id === 'string' ? [id] : id;
  await trx
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('response_body', 'is not', null)
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = ids.map((one) => sql<boolean>`strpos(response_body, ${JSON.stringify(one)}) > 0`);
      if (scope) {
        conditions.push(
          eb(sql<string>`(regexp_match(response_body, ${STORED_CONVERSATION_ID}))[1]`, 'in', conversationsIn(trx, accountId, scope)),
        );
      }
      return eb.or(conditions);
    })
    .execute();
}

/** Deletes the conversations in `scope` with their messages; returns how many of each went. */
export async function deleteConversations(trx: Transaction<Database>, accountId: string, scope: ConversationScope): Promise<Removed> {
  // Locked first: a message being appended holds its conversation's row lock (`MessageWriter`),
  // so it either lands before this delete (and is counted with it) or finds the conversation gone.
  await conversationsIn(trx, accountId, scope).forUpdate().execute();
  const messages = await trx
    .deleteFrom('messages')
    .where('account_id', '=', accountId)
    .where('conversation_id', 'in', conversationsIn(trx, accountId, scope))
    .executeTakeFirst();
  const [column, value] = scopeColumn(scope);
  const conversations = await trx
    .deleteFrom('conversations')
    .where('account_id', '=', accountId)
    .where(column, '=', value)
    .executeTakeFirst();
  return { conversations: Number(conversations.numDeletedRows), messages: Number(messages.numDeletedRows) };
}

/**
 * Deletes a bot or an agent with every conversation it owns (and their messages), the stored
 * answers naming any of them, and counts the deletion; all in one transaction. 404 when the object
 * is not this account's. The row is locked first: a first message to it now waits, and then fails
 * the conversation's foreign key (answered 404) instead of starting a conversation nothing owns.
 */
export async function deleteConversationOwner(
  db: Kysely<Database>,
  accountId: string,
  owner: { bot: string } | { agent: string },
): Promise<Deletion> {
  const [table, id, scope, resource, param] =
    'bot' in owner
      ? (['bots', owner.bot, { botId: owner.bot }, 'bot', 'bot_id'] as const)
      : (['agents', owner.agent, { agentId: owner.agent }, 'agent', 'agent_id'] as const);
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) throw notFound(param, resource);
    await forgetStoredAnswers(trx, accountId, id, scope);
    const removed = await deleteConversations(trx, accountId, scope);
    await trx.deleteFrom(table).where('account_id', '=', accountId).where('id', '=', id).execute();
    await recordDeletion(trx, accountId, resource, removed);
    return { id, deleted: true, ...removed };
  });
}
