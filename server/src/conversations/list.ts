/**
 * The conversation list of `GET /v1/conversations` (filtered, newest first) and the conversation as
 * the API answers it (`ConversationService.list` and `get`). The team's private notes (role `note`)
 * are neither a conversation's newest message nor found by its text.
 *
 * The list is built to stay fast on large tables: a keyset page on an index per filter
 * (migration 007), the text filter on a GIN index of the messages' stored words, the newest message of
 * each listed conversation through the (conversation_id, seq) index, and no total count.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Conversation, ConversationListQuery, Page, Role } from '../../../src/client/types.ts';
import { messagePreview } from '../attachments/preview.ts';
import { parseInstant } from '../analytics/range.ts';
import { iso } from '../db/json.ts';
import type { ConversationsTable, Database } from '../db/schema.ts';
import { invalid, notFound } from '../http/errors.ts';
import { createdKey, newestFirst, newestFirstPage } from '../http/pagination.ts';
import { PREVIEW_LENGTH } from './schema.ts';

interface LastMessageRow {
  id: string;
  role: string;
  preview: string;
  created_at: string;
}

type ListedConversationRow = Selectable<ConversationsTable> & { last_message: LastMessageRow | null };

/** Letters and digits: the words of `q` that become prefix terms. */
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_WORDS = 20;
/** Up to this many matching messages, the text filter starts from the matches (see `list`). */
const SPARSE_MATCHES = 1000;
/**
 * The text filter first looks for a full page among this many newest conversations per row of the
 * page (see `list`): a word in about a quarter of the conversations or more finds its page there.
 */
const WALK_FIRST_PER_ROW = 4;

export function toConversation(row: ListedConversationRow): Conversation {
  const last = row.last_message;
  return {
    id: row.id,
    bot_id: row.bot_id,
    agent_id: row.agent_id,
    user_id: row.user_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    labels: row.labels,
    last_message: last && { id: last.id, role: last.role as Role, preview: last.preview, created_at: iso(last.created_at) },
  };
}

/**
 * The text filter as a tsquery over `messages.content_words` (`to_tsvector('simple', content)`): the words of `q` as PostgreSQL
 * splits them (so an e-mail address or a hyphenated word matches as written), OR every letter/digit
 * run of `q` as a prefix (so "refun" finds "refunds"). Only letters and digits reach `to_tsquery`,
 * so no input can be a tsquery syntax error.
 */
function textQuery(q: string) {
  const words = [...new Set(q.toLowerCase().match(WORD) ?? [])].slice(0, MAX_WORDS);
  if (words.length === 0) throw invalid('q', 'q must contain at least one letter or digit.');
  const prefixes = words.map((word) => `${word}:*`).join(' & ');
  return sql`(plainto_tsquery('simple', ${q}) || to_tsquery('simple', ${prefixes}))`;
}

export async function listConversations(db: Kysely<Database>, accountId: string, query: ConversationListQuery & { limit: number }): Promise<Page<Conversation>> {
  if (query.bot_id) await assertOwned(db, accountId, 'bots', query.bot_id, 'bot_id', 'bot');
  if (query.agent_id) await assertOwned(db, accountId, 'agents', query.agent_id, 'agent_id', 'agent');
  const from = query.from === undefined ? undefined : parseInstant(query.from, 'from');
  const to = query.to === undefined ? undefined : parseInstant(query.to, 'to');
  if (from && to && from.getTime() > to.getTime()) throw invalid('from', 'from must not be after to.');

  let select = selectConversations(db, accountId);
  if (query.bot_id) select = select.where('bot_id', '=', query.bot_id);
  if (query.agent_id) select = select.where('agent_id', '=', query.agent_id);
  if (query.user_id) select = select.where('user_id', '=', query.user_id);
  if (query.label) select = select.where(withLabel(query.label));
  if (from) select = select.where('created_at', '>=', from);
  // `to` is inclusive to the millisecond; the database keeps microseconds.
  if (to) select = select.where('created_at', '<', new Date(to.getTime() + 1));
  if (query.q !== undefined) {
    const words = textQuery(query.q);
    const matches = sql<boolean>`content_words @@ ${words}`;
    const walk = select.where(({ exists, selectFrom }) =>
      exists(selectFrom('messages').select(sql`1`.as('one')).whereRef('messages.conversation_id', '=', 'conversations.id').where(matches).where('role', '<>', 'note')),
    );
    // Common words first: a full page is among the newest few hundred conversations of the list,
    // found by walking them and checking their messages (a few thousand rows). Within that
    // prefix of the list, a full page (has_more) is the page; so is whatever the walk finds
    // when the prefix is the whole rest of the list.
    const boundary = await newestFirst(select.clearSelect().select(['id', createdKey]), query.cursor)
      .offset(WALK_FIRST_PER_ROW * (query.limit + 1) - 1)
      .limit(1)
      .executeTakeFirst();
    if (!boundary) return newestFirstPage(walk, { limit: query.limit, cursor: query.cursor }, toConversation);
    const prefix = await newestFirstPage(
      walk.where(sql<boolean>`(created_at, id) >= (${boundary.created_key}::timestamptz, ${boundary.id})`),
      { limit: query.limit, cursor: query.cursor },
      toConversation,
    );
    if (prefix.has_more) return prefix;
    // Rare words: every matching message is found through the GIN index (cheap for a few), and
    // the page is cut from their conversations. In between (too many matches to collect, too
    // few for the prefix), the walk goes on through the whole list. The planner cannot tell
    // these apart (it always walks), so a bounded look at the index decides.
    const hits = await db.transaction().execute(async (trx) => {
      // Through the GIN index only. The planner cannot estimate a prefix tsquery, guesses
      // thousands of matches and, with the LIMIT, prefers to walk every message of the account
      // (1,000,000 rows: 300–500 ms for a word in 500 messages); the bitmap scan reads only matches.
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_indexscan = off`.execute(trx);
      return trx.selectFrom('messages').select('conversation_id').where('account_id', '=', accountId).where(matches).where('role', '<>', 'note').limit(SPARSE_MATCHES).execute();
    });
    if (hits.length === 0) return { items: [], next_cursor: null, has_more: false };
    select = hits.length < SPARSE_MATCHES ? select.where('id', 'in', [...new Set(hits.map((hit) => hit.conversation_id))]) : walk;
  }
  return newestFirstPage(select, { limit: query.limit, cursor: query.cursor }, toConversation);
}

/** Conversations with this label (the GIN index of migration 025). */
export function withLabel(label: string) {
  return sql<boolean>`labels @> array[${label}]::text[]`;
}

export function selectConversations(db: Kysely<Database>, accountId: string) {
  return db
    .selectFrom('conversations')
    .selectAll()
    .select(createdKey)
    .select(
      sql<LastMessageRow | null>`(
        select json_build_object('id', m.id, 'role', m.role, 'preview', left(${messagePreview('m')}, ${sql.lit(PREVIEW_LENGTH)}), 'created_at', m.created_at)
        from messages m where m.conversation_id = conversations.id and m.role <> 'note' order by m.seq desc limit 1)`.as('last_message'),
    )
    .where('account_id', '=', accountId);
}

async function assertOwned(db: Kysely<Database>, accountId: string, table: 'bots' | 'agents', id: string, param: string, what: string): Promise<void> {
  const row = await db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(param, what);
}
