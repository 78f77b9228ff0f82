/**
 * `GET /v1/analytics/support`: satisfaction (CSAT) and the team's response times, in total, per
 * operator and per bot, and the newest comments. Test conversations count nowhere.
 *
 * - CSAT: `conversation_csat` rows given in the range (the bot, agent and operator were copied in
 *   when given), grouped once by grouping sets: the total, per bot, per operator.
 * - Response times: every handoff asked for in the range is a `waiting` status event (read by the
 *   partial index of status events by time, migration 028); three probes of the conversation's
 *   events (by `(conversation_id, seq)`) find what followed it: the handoff's end (the next status
 *   `bot` or `closed`), the operator who took it (the first `with_person` before the end) and their
 *   first message. First response: asked → first operator message; resolution: asked → end. A
 *   handoff without them (not answered or not ended yet) is not measured. The same grouping sets
 *   give the totals, per bot and per operator, with the mean and the median.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { CsatComment, CsatRating, DurationSummary, SupportFigures, SupportQuery, SupportReport } from '../../../src/client/types.ts';
import { resolveRange } from '../analytics/range.ts';
import { inRealConversation } from '../conversations/test-conversations.ts';
import { iso } from '../db/json.ts';
import { assertOwned } from '../feedback/report.ts';
import type { Database } from '../db/schema.ts';
import { withCsatTables } from './tables.ts';
import { operatorName } from '../handoff/operator.ts';

/** The wire query as the route reads it: the schema's defaults filled in. */
export type SupportReportQuery = SupportQuery & { limit: number };

type Dimension = 'total' | 'bot' | 'operator';
type Group = { dim: Dimension; bot_id: string | null; operator_id: string | null };

/** Which grouping set a row is: `grouping()` is 0 for the columns grouped by. */
const dimension = (bot: string, operator: string) =>
  sql<Dimension>`case when grouping(${sql.ref(bot)}) = 0 then 'bot' when grouping(${sql.ref(operator)}) = 0 then 'operator' else 'total' end`;

const round = (value: unknown, digits = 3) => (value === null || value === undefined ? null : Number(Number(value).toFixed(digits)));

function emptyFigures(): SupportFigures {
  const duration = (): DurationSummary => ({ count: 0, mean_seconds: null, median_seconds: null });
  return { handoffs: 0, csat: { responses: 0, satisfied: 0, satisfied_share: null, mean: null }, first_response: duration(), resolution: duration() };
}

export async function supportReport(db: Kysely<Database>, accountId: string, query: SupportReportQuery): Promise<SupportReport> {
  const range = resolveRange(query);
  if (query.bot_id) await assertOwned(db, accountId, 'bots', query.bot_id, 'bot_id', 'bot');
  if (query.agent_id) await assertOwned(db, accountId, 'agents', query.agent_id, 'agent_id', 'agent');
  const owner = (alias: string): RawBuilder<SqlBool> =>
    sql.join(
      [
        sql`true`,
        ...(query.bot_id ? [sql`${sql.ref(`${alias}.bot_id`)} = ${query.bot_id}`] : []),
        ...(query.agent_id ? [sql`${sql.ref(`${alias}.agent_id`)} = ${query.agent_id}`] : []),
      ],
      sql` and `,
    ) as RawBuilder<SqlBool>;

  const [ratings, handoffs, comments] = await Promise.all([
    sql<Group & { responses: string; satisfied: string; mean: number | null }>`
      select ${dimension('s.bot_id', 's.operator_id')} as dim, s.bot_id, s.operator_id, count(*) as responses,
        count(*) filter (where s.rating >= 4) as satisfied, avg(s.rating)::float8 as mean
      from conversation_csat s
      where s.account_id = ${accountId} and s.created_at >= ${range.from} and s.created_at < ${range.before}
        and ${inRealConversation('s.conversation_id', 's.account_id')} and ${owner('s')}
      group by grouping sets ((), (s.bot_id), (s.operator_id))`.execute(db),
    sql<Group & { handoffs: string; fr_count: string; fr_mean: number | null; fr_median: number | null; res_count: string; res_mean: number | null; res_median: number | null }>`
      with asked as (
        select e.seq, e.conversation_id, e.created_at, c.bot_id
        from handoff_events e join conversations c on c.id = e.conversation_id and c.account_id = e.account_id
        where e.account_id = ${accountId} and e.type = 'status' and e.data->>'status' = 'waiting'
          and e.created_at >= ${range.from} and e.created_at < ${range.before} and not c.is_test and ${owner('c')}
      ), measured as (
        select a.bot_id, taken.operator_id,
          extract(epoch from reply.created_at - a.created_at)::float8 as first_response,
          extract(epoch from ended.created_at - a.created_at)::float8 as resolution
        from asked a
        left join lateral (
          select x.seq, x.created_at from handoff_events x
          where x.conversation_id = a.conversation_id and x.seq > a.seq and x.type = 'status' and x.data->>'status' in ('bot', 'closed')
          order by x.seq limit 1) ended on true
        left join lateral (
          select x.data->'operator'->>'id' as operator_id from handoff_events x
          where x.conversation_id = a.conversation_id and x.seq > a.seq and (ended.seq is null or x.seq < ended.seq)
            and x.type = 'status' and x.data->>'status' = 'with_person'
          order by x.seq limit 1) taken on true
        left join lateral (
          select x.created_at from handoff_events x
          where x.conversation_id = a.conversation_id and x.seq > a.seq and (ended.seq is null or x.seq < ended.seq)
            and x.type = 'message' and x.data->>'role' = 'operator'
          order by x.seq limit 1) reply on true
      )
      select ${dimension('m.bot_id', 'm.operator_id')} as dim, m.bot_id, m.operator_id, count(*) as handoffs,
        count(m.first_response) as fr_count, avg(m.first_response) as fr_mean,
        percentile_cont(0.5) within group (order by m.first_response) as fr_median,
        count(m.resolution) as res_count, avg(m.resolution) as res_mean,
        percentile_cont(0.5) within group (order by m.resolution) as res_median
      from measured m
      group by grouping sets ((), (m.bot_id), (m.operator_id))`.execute(db),
    sql<{ conversation_id: string; bot_id: string | null; operator_id: string | null; rating: number; comment: string; created_at: Date }>`
      select s.conversation_id, s.bot_id, s.operator_id, s.rating, s.comment, s.created_at from conversation_csat s
      where s.account_id = ${accountId} and s.created_at >= ${range.from} and s.created_at < ${range.before}
        and s.comment is not null and s.comment <> ''
        and ${inRealConversation('s.conversation_id', 's.account_id')} and ${owner('s')}
      order by s.created_at desc, s.conversation_id limit ${query.limit}`.execute(db),
  ]);

  const groups = new Map<string, SupportFigures & Group>();
  const figuresOf = (row: Group) => {
    const key = `${row.dim}\u0000${row.dim === 'bot' ? row.bot_id : row.dim === 'operator' ? row.operator_id : ''}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ...emptyFigures(), dim: row.dim, bot_id: row.bot_id, operator_id: row.operator_id }));
    return group;
  };
  for (const row of ratings.rows) {
    const responses = Number(row.responses);
    const satisfied = Number(row.satisfied);
    figuresOf(row).csat = { responses, satisfied, satisfied_share: responses ? round(satisfied / responses, 4) : null, mean: round(row.mean) };
  }
  for (const row of handoffs.rows) {
    const figures = figuresOf(row);
    figures.handoffs = Number(row.handoffs);
    figures.first_response = { count: Number(row.fr_count), mean_seconds: round(row.fr_mean), median_seconds: round(row.fr_median) };
    figures.resolution = { count: Number(row.res_count), mean_seconds: round(row.res_mean), median_seconds: round(row.res_median) };
  }

  const all = [...groups.values()];
  const figures = ({ handoffs, csat, first_response, resolution }: SupportFigures): SupportFigures => ({ handoffs, csat, first_response, resolution });
  const busiest = (a: SupportFigures, b: SupportFigures) => b.handoffs + b.csat.responses - (a.handoffs + a.csat.responses);
  const byId = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
  const operatorRows = all.filter((g) => g.dim === 'operator' && g.operator_id !== null).sort((a, b) => busiest(a, b) || byId(a.operator_id, b.operator_id)).slice(0, query.limit);
  const names = await operatorNames(db, operatorRows.map((g) => g.operator_id!));
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    agent_id: query.agent_id ?? null,
    bot_id: query.bot_id ?? null,
    totals: figures(all.find((g) => g.dim === 'total') ?? emptyFigures()),
    operators: operatorRows.map((g) => ({ operator_id: g.operator_id!, name: names.get(g.operator_id!) ?? 'Operator', ...figures(g) })),
    bots: all
      .filter((g) => g.dim === 'bot')
      .sort((a, b) => busiest(a, b) || byId(a.bot_id, b.bot_id))
      .slice(0, query.limit)
      .map((g) => ({ bot_id: g.bot_id, ...figures(g) })),
    comments: comments.rows.map(
      (row): CsatComment => ({
        conversation_id: row.conversation_id,
        bot_id: row.bot_id,
        operator_id: row.operator_id,
        rating: Number(row.rating) as CsatRating,
        comment: row.comment,
        created_at: iso(row.created_at),
      }),
    ),
  };
}

/** How operators appear (as to visitors: handoff/service.ts): their display name, else their email's local part. */
async function operatorNames(db: Kysely<Database>, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await withCsatTables(db).selectFrom('users').select(['id', 'email', 'display_name']).where('id', 'in', ids).execute();
  return new Map(rows.map((user) => [user.id, operatorName(user)]));
}
