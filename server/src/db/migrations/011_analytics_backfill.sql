-- One set-based rebuild of every analytics rollup of an account (migration 008) from its stored
-- rows: `analytics_backfill(account)`, called through `rebuildRollups` (analytics/rollups.ts).
--
-- For writes that bypass the rollup triggers: a bulk import (the analytics bench stores 1,000,000
-- messages with the triggers disabled, then rebuilds once: through the triggers, the per-statement
-- upserts took > 15 min on PGlite) or a repair. The result is what the triggers keep: the same
-- aggregate (analytics_add_replies) over the same rows. Not for an account being written to at the
-- same time: a write committed between its delete and its insert would be counted twice or not at all.

-- A reply period is 24 h, not '1 day': `timestamptz + interval '1 day'` follows the session's time
-- zone, and across a daylight-saving change it would be 23 or 25 hours of a UTC day.
create or replace function analytics_stored_replies(account text, at timestamptz, grain text) returns analytics_reply[] language sql stable as $$
  select array(
    select row(m.seq, m.account_id, m.conversation_id, m.source, m.intent, m.confidence, m.latency_ms, m.created_at,
               coalesce(c.bot_id, ''), coalesce(c.agent_id, ''))::analytics_reply
    from messages m join conversations c on c.id = m.conversation_id and c.account_id = m.account_id
    where m.account_id = account and m.role = 'assistant'
      and m.created_at >= at and m.created_at < at + case grain when 'day' then interval '24 hours' else interval '1 hour' end)
$$;

create function analytics_backfill(account text) returns void language plpgsql as $$
declare
  first_day timestamptz;
  last_day timestamptz;
  day timestamptz;
begin
  delete from request_rollups where account_id = account;
  delete from usage_rollups where account_id = account;
  delete from reply_rollups where account_id = account;
  delete from intent_rollups where account_id = account;
  delete from unanswered_rollups where account_id = account;
  delete from reply_conversation_rollups where account_id = account;

  insert into request_rollups (account_id, hour, method, route, status, requests)
  select account_id, analytics_hour(created_at), method, route, status, count(*) from api_requests
  where account_id = account group by 1, 2, 3, 4, 5;
  insert into usage_rollups (account_id, hour, conversations)
  select account_id, analytics_hour(created_at), count(*) from conversations where account_id = account group by 1, 2;
  insert into usage_rollups as t (account_id, hour, messages)
  select account_id, analytics_hour(created_at), count(*) from messages where account_id = account group by 1, 2
  on conflict (account_id, hour) do update set messages = excluded.messages;

  -- The replies one UTC day at a time: a day's replies make its day rows and all its hour rows
  -- (hours nest in days), and the array handed over stays one day's size.
  select analytics_start('day', min(created_at)), analytics_start('day', max(created_at)) into first_day, last_day
  from messages where account_id = account;
  day := first_day;
  while day <= last_day loop
    perform analytics_add_replies(analytics_stored_replies(account, day, 'day'), array['hour', 'day']);
    day := day + interval '24 hours';
  end loop;
end $$;

-- The performance report of one bot or agent reads its conversations' last replies per hour; the
-- primary key (account, hour, conversation) would read every conversation of the account in range.
create index reply_conversation_rollups_bot on reply_conversation_rollups (account_id, bot_id, hour);
create index reply_conversation_rollups_agent on reply_conversation_rollups (account_id, agent_id, hour);
