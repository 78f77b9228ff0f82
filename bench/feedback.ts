/**
 * The feedback report (`GET /v1/analytics/feedback`) on embedded PGlite: messages
 * stored by `lib/message-seed.ts`, then a thumbs up or down (a reason on a third of the downs) on a
 * share of the answers, spread over the seeded 30 days; sequential GETs on one keep-alive
 * connection, p50/p99 per variant.
 *
 *   node --import tsx bench/feedback.ts [messages=100000] [rated share of answers, percent=100]
 */
import { sql } from 'kysely';
import { startServer } from '../server/src/index.ts';
import { sequentialLatency } from './lib/latency.ts';
import { seedMessages } from './lib/message-seed.ts';

const messages = Number(process.argv[2] ?? 100_000);
const ratedPercent = Number(process.argv[3] ?? 100);
const server = await startServer({ dataDir: 'memory://', seed: false, logLevel: 'silent', port: 0 });
try {
  const { accountId, apiKey } = await server.service.createAccount({ rateLimit: { points: 1_000_000, durationSeconds: 60 } });
  const db = server.service.deps.db;
  const started = performance.now();
  const { botIds } = await seedMessages(db, accountId, messages);
  // `ratedPercent` of the answers rated: 70 % up, 30 % down; a reason on every third down; the stock
  // answer text is shared (50 variants), so `most_downvoted` groups many messages into few answers
  await sql`
    insert into message_feedback (account_id, message_id, user_id, conversation_id, bot_id, agent_id, answer_key, rating, reason, updated_at, created_at)
    select m.account_id, m.id, coalesce(c.user_id, ''), m.conversation_id, c.bot_id, c.agent_id, md5(m.content || (m.seq % 50)),
           case when m.seq % 10 < 7 then 'up' else 'down' end,
           case when m.seq % 10 >= 7 and m.seq % 3 = 0 then (array['incorrect', 'not_helpful', 'incomplete', 'other'])[1 + m.seq % 4] end,
           m.created_at + interval '1 minute', m.created_at + interval '1 minute'
    from messages m join conversations c on c.id = m.conversation_id
    where m.account_id = ${accountId} and m.role = 'assistant' and (m.seq * 7919) % 100 < ${ratedPercent}`.execute(db);
  // as autovacuum leaves a PostgreSQL table: statistics, and a visibility map for index-only scans
  await sql`vacuum analyze message_feedback`.execute(db);
  const rated = Number((await sql<{ n: string }>`select count(*) as n from message_feedback`.execute(db)).rows[0]!.n);
  console.log(`seeded ${messages} messages, ${rated} rated answers in ${((performance.now() - started) / 1000).toFixed(1)} s (PGlite)`);

  const variants: Record<string, string> = {
    'GET /v1/analytics/feedback (7 days)': '/v1/analytics/feedback',
    'GET /v1/analytics/feedback?bot_id': `/v1/analytics/feedback?bot_id=${botIds[0]}`,
    'GET /v1/analytics/feedback?granularity=hour': '/v1/analytics/feedback?granularity=hour',
    'GET /v1/analytics/feedback (30 days)': `/v1/analytics/feedback?from=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}`,
  };
  for (const [label, path] of Object.entries(variants)) {
    const result = await sequentialLatency({ url: `${server.url}${path}`, method: 'GET', headers: { authorization: `Bearer ${apiKey}` } }, 3000, 5);
    console.log(`${label.padEnd(48)} n=${String(result.count).padStart(4)}  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms`);
  }
} finally {
  await server.close();
}
