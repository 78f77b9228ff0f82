/**
 * Stored traffic for the analytics and conversation-list rows: N messages of one account, written
 * with set-based SQL (generate_series), not through the API (1,000,000 messages through the API
 * would take hours). Deterministic: every run stores the same rows, spread over the 30 days before
 * now, so the reports' default 7-day window holds about a quarter of them.
 *
 * Shape: 10 bots; conversations of 5 turns (a user message, then the assistant's reply 1 s later);
 * 15 % of the replies fall back, the rest answer with one of 20 intents; latencies as a mix of a
 * built-in responder (5–44 ms) and an LLM (400–3,399 ms); one /v1 request row per turn.
 * Every 1,000th user message contains the rare word "zeppelin", every 3rd the word "refund"
 * (the text filter's sparse and common cases).
 *
 * The rollup triggers of migration 008 are off while the rows go in and the rollups are rebuilt
 * once at the end (`rebuildRollups`, set-based): through the triggers the per-statement upserts
 * took > 15 min for 1,000,000 messages on PGlite. All in one transaction, so a failed seed leaves
 * the triggers as they were (ALTER TABLE is transactional).
 */
import { sql, type Kysely } from 'kysely';
import { rebuildRollups } from '../../server/src/analytics/rollups.ts';
import type { Database } from '../../server/src/db/schema.ts';

export const SEED_BOTS = 10;
const TURNS = 5;
/** Conversations per INSERT of messages: bounds one statement's working set. */
const CHUNK = 10_000;
/** The rollup triggers of migration 008, by table. */
const ROLLUP_TRIGGERS = [
  ['messages', 'messages_rollups_insert'],
  ['conversations', 'conversations_rollups_insert'],
  ['api_requests', 'api_requests_rollups_insert'],
] as const;
const SPAN_SECONDS = 30 * 86_400;
const QUESTIONS = [
  'where is my order', 'how do I get a refund', 'what are your opening hours', 'can I change my delivery address',
  'do you ship abroad', 'how do I reset my password', 'is there a student discount', 'my card was declined',
  'can I cancel my subscription', 'how long does shipping take', 'what is the warranty', 'I want to talk to a human',
];

export interface SeededTraffic {
  botIds: string[];
  userId: string;
  messages: number;
}

export async function seedMessages(db: Kysely<Database>, accountId: string, messages: number): Promise<SeededTraffic> {
  const seeded = await db.transaction().execute(async (trx) => {
    const triggers = async (action: 'disable' | 'enable') => {
      for (const [table, trigger] of ROLLUP_TRIGGERS) await sql`alter table ${sql.table(table)} ${sql.raw(action)} trigger ${sql.ref(trigger)}`.execute(trx);
    };
    await triggers('disable');
    const traffic = await insertTraffic(trx, accountId, messages);
    await triggers('enable');
    // Statistics first: without them the rebuild's per-day lookups are planned as scans of every message.
    await sql`analyze`.execute(trx);
    await rebuildRollups(trx, accountId);
    return traffic;
  });
  await sql`analyze`.execute(db);
  return seeded;
}

async function insertTraffic(db: Kysely<Database>, accountId: string, messages: number): Promise<SeededTraffic> {
  const conversations = Math.max(1, Math.round(messages / (2 * TURNS)));
  const botIds = Array.from({ length: SEED_BOTS }, (_, i) => `bot_seedbot${i}`);
  await db
    .insertInto('bots')
    .values(botIds.map((id, i) => ({ id, account_id: accountId, name: `Seed bot ${i}`, language: 'en', status: 'ready', training: JSON.stringify({}) })) as never)
    .execute();
  const questions = sql.val(QUESTIONS);
  await sql`
    insert into conversations (id, account_id, bot_id, user_id, created_at, updated_at)
    select 'conv_seed' || i, ${accountId}, 'bot_seedbot' || (i % ${SEED_BOTS}), 'user-' || (i % 5000),
           now() - make_interval(secs => ${SPAN_SECONDS} * (1 - i::float8 / ${conversations})),
           now() - make_interval(secs => ${SPAN_SECONDS} * (1 - i::float8 / ${conversations})) + interval '5 minutes'
    from generate_series(0, ${conversations - 1}) as i`.execute(db);
  // In conversation order, then turn, then role: identity `seq` follows the insert order.
  for (let first = 0; first < conversations; first += CHUNK) {
    const last = Math.min(conversations, first + CHUNK) - 1;
    await sql`
    insert into messages (id, account_id, conversation_id, role, content, source, intent, confidence, latency_ms, created_at)
    select 'msg_seed' || n, ${accountId}, 'conv_seed' || i, role,
           case when role = 'user' then
             (${questions}::text[])[1 + (n * 7 + i) % ${QUESTIONS.length}]
               || case when (n / 2) % 3 = 0 then ' refund please' else '' end
               || case when (n / 2) % 1000 = 7 then ' zeppelin' else '' end
           else 'Here is what I found about that.' end,
           case when role = 'user' then null when (n * 7919) % 100 < 15 then 'fallback' else 'intent' end,
           case when role = 'user' or (n * 7919) % 100 < 15 then null else 'intent_' || (n * 31 % 20) end,
           case when role = 'user' then null else ((n * 104729) % 1000) / 1000.0 end,
           case when role = 'user' then null when (n * 13) % 10 < 7 then 5 + (n * 17) % 40 else 400 + (n * 6151) % 3000 end,
           now() - make_interval(secs => ${SPAN_SECONDS} * (1 - i::float8 / ${conversations}))
             + make_interval(secs => t * 30 + case when role = 'user' then 0 else 1 end)
    from generate_series(${first}::int, ${last}::int) as i,
         generate_series(0, ${TURNS - 1}) as t,
         lateral (values ('user', (i * ${TURNS} + t)::bigint * 2), ('assistant', (i * ${TURNS} + t)::bigint * 2 + 1)) as r(role, n)
    order by i, t, n`.execute(db);
  }
  await sql`
    insert into api_requests (account_id, method, route, status, latency_ms, created_at)
    select ${accountId}, 'POST', '/v1/bots/:bot_id/messages', case when turn % 50 = 0 then 429 else 200 end, 5 + turn % 40,
           now() - make_interval(secs => ${SPAN_SECONDS} * (1 - (turn / ${TURNS})::float8 / ${conversations}))
             + make_interval(secs => (turn % ${TURNS}) * 30 + 1)
    from generate_series(0, ${conversations * TURNS - 1}) as turn`.execute(db);
  return { botIds, userId: 'user-42', messages: conversations * TURNS * 2 };
}
