/**
 * Test conversations: those the bot editor's preview starts (the real widget talking to the real
 * bot through the dashboard's /v1 passthrough, as the end user `dashboard-preview[:<user id>]`).
 * The flag is the conversation's `is_test` column (migration 023), set once when it is created:
 * only a dashboard session sets it, with that user id. A visitor token or an API key never does,
 * whatever user id it sends, and the session's other chats stay real. Such conversations are
 * stored and readable like any other, but count nowhere: the analytics rollups skip them (the
 * migration's triggers), and every other read that counts or queues conversations filters with
 * `realConversations` or `inRealConversation`.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AppContext } from '../http/context.ts';

/** The end user of the bot editor's preview; `dashboard-preview:<user id>` per teammate. */
export const PREVIEW_USER = 'dashboard-preview';

/** Whether a conversation this request starts for `userId` is a test: the preview's user, through a dashboard session. */
export function startsTestConversations(c: AppContext, userId: string | undefined): boolean {
  const preview = userId === PREVIEW_USER || userId?.startsWith(`${PREVIEW_USER}:`) === true;
  return preview && c.get('principal')?.kind === 'session';
}

/** Only real (not test) conversations; `alias` names `conversations` in the query. */
export function realConversations(alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not ${sql.ref(`${alias}.is_test`)}`;
}

/** Only rows of real conversations, for a table whose rows name their conversation (messages, feedback). */
export function inRealConversation(conversationId: string, accountId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from conversations tc where tc.id = ${sql.ref(conversationId)} and tc.account_id = ${sql.ref(accountId)} and tc.is_test)`;
}
