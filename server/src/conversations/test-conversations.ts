/**
 * Test conversations: those a dashboard session starts through the /v1 passthrough (the bot
 * editor's preview, the real widget talking to the real bot). The flag is the conversation's
 * `is_test` column (migration 023), set once when it is created, from the request's principal: only
 * the signed-in dashboard can set it, never a visitor token or an API key, and nothing in a body
 * or header asks for it. Such conversations are stored and readable like any other, but count
 * nowhere: the analytics rollups skip them (the migration's triggers), and every other read that
 * counts or queues conversations filters with `realConversations`.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AppContext } from '../http/context.ts';

/** Whether a conversation this request starts is a test: the caller is a dashboard session. */
export function startsTestConversations(c: AppContext): boolean {
  return c.get('principal')?.kind === 'session';
}

/** Only real (not test) conversations; `alias` names `conversations` in the query. */
export function realConversations(alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not ${sql.ref(`${alias}.is_test`)}`;
}

/** Only rows of real conversations, for a table whose rows name their conversation (messages, feedback). */
export function inRealConversation(conversationId: string, accountId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from conversations tc where tc.id = ${sql.ref(conversationId)} and tc.account_id = ${sql.ref(accountId)} and tc.is_test)`;
}
