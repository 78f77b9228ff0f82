/**
 * The operator inbox's reads: conversations waiting for a person (longest wait first) and those
 * with one, each with its wait and newest message; and the operator's own profile (how visitors see them).
 */
import { sql, type Kysely } from 'kysely';
import type { InboxConversation, OperatorProfile } from '../../../src/client/types.ts';
import type { InboxCounts } from '../../../src/dashboard/types.ts';
import { messagePreview } from '../attachments/preview.ts';
import { iso } from '../db/json.ts';
import { realConversations } from '../conversations/test-conversations.ts';
import { withLabel } from '../conversations/list.ts';
import type { Database } from '../db/schema.ts';
import type { HandoffService } from './service.ts';
import { withHandoffTables, type HandoffDatabase } from './tables.ts';

const INBOX_LIMIT = 200;
const PREVIEW = 200;

export class InboxService {
  private readonly db: Kysely<HandoffDatabase>;

  constructor(
    db: Kysely<Database>,
    private readonly handoff: HandoffService,
  ) {
    this.db = withHandoffTables(db);
  }

  /**
   * `q`: only conversations with a message or note containing it (ILIKE, its `%`, `_` and `\` taken
   * literally). The inbox's conversations are few (the partial index of migration 016), and each is
   * searched through its own messages, so the search stays bounded however large the account.
   */
  async list(accountId: string, filter: { q?: string; label?: string } = {}): Promise<InboxConversation[]> {
    let query = this.db
      .selectFrom('conversations')
      .select(['id', 'status', 'bot_id', 'user_id', 'waiting_since', 'operator_id', 'labels', sql<number>`extract(epoch from now() - waiting_since)`.as('wait')])
      .where('account_id', '=', accountId)
      .where(realConversations('conversations'))
      .where('status', 'in', ['waiting', 'with_person']);
    if (filter.label) query = query.where(withLabel(filter.label));
    if (filter.q) {
      const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('messages')
            .select(sql`1`.as('one'))
            .where('messages.account_id', '=', accountId)
            .whereRef('messages.conversation_id', '=', 'conversations.id')
            .where(sql<boolean>`messages.content ilike ${pattern} escape '\\'`),
        ),
      );
    }
    const rows = await query
      .orderBy(sql`status = 'waiting'`, 'desc')
      .orderBy('waiting_since', 'asc')
      .orderBy('id')
      .limit(INBOX_LIMIT)
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const last = await this.db
      .selectFrom('messages')
      .distinctOn('conversation_id')
      .select(['conversation_id', 'id', 'role', 'created_at'])
      .select(messagePreview('messages').as('preview'))
      .where('account_id', '=', accountId)
      .where('conversation_id', 'in', ids)
      .orderBy('conversation_id')
      .orderBy('seq', 'desc')
      .execute();
    const lastOf = new Map(last.map((m) => [m.conversation_id, m]));
    const profiles = new Map<string, OperatorProfile>();
    for (const operatorId of new Set(rows.map((r) => r.operator_id).filter((id): id is string => id !== null))) {
      profiles.set(operatorId, await this.handoff.operatorProfile(operatorId));
    }
    return rows.map((row) => {
      const message = lastOf.get(row.id);
      return {
        id: row.id,
        status: row.status,
        bot_id: row.bot_id,
        user_id: row.user_id,
        waiting_since: row.waiting_since ? iso(row.waiting_since) : null,
        wait_seconds: row.waiting_since ? Math.max(0, Math.floor(Number(row.wait))) : null,
        operator: row.operator_id ? (profiles.get(row.operator_id) ?? null) : null,
        labels: row.labels,
        last_message: message ? { id: message.id, role: message.role, preview: message.preview.slice(0, PREVIEW), created_at: iso(message.created_at) } : null,
      };
    });
  }

  /** How many conversations wait for anyone, and how many `userId` holds (the dashboard's badge). */
  async counts(accountId: string, userId: string): Promise<InboxCounts> {
    const row = await this.db
      .selectFrom('conversations')
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere('status', '=', 'waiting').as('waiting'),
        eb.fn.countAll<string>().filterWhere((f) => f.and([f('status', '=', 'with_person'), f('operator_id', '=', userId)])).as('mine'),
      ])
      .where('account_id', '=', accountId)
      .where(realConversations('conversations'))
      .where('status', 'in', ['waiting', 'with_person'])
      .executeTakeFirstOrThrow();
    return { waiting: Number(row.waiting), mine: Number(row.mine) };
  }

  async setProfile(userId: string, input: { display_name?: string | null; avatar_url?: string | null }): Promise<OperatorProfile> {
    const changes: { display_name?: string | null; avatar_url?: string | null } = {};
    if (input.display_name !== undefined) changes.display_name = input.display_name;
    if (input.avatar_url !== undefined) changes.avatar_url = input.avatar_url;
    if (Object.keys(changes).length > 0) await this.db.updateTable('users').set(changes).where('id', '=', userId).execute();
    return this.handoff.operatorProfile(userId);
  }
}
