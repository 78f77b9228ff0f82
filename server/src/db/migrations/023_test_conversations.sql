-- Test conversations: the ones a dashboard session starts (the bot editor's preview, trying an
-- agent). They are stored and readable like any other, but count nowhere: not in the analytics
-- rollups below, not in the reports' raw reads, the feedback report or the inbox queue (each of
-- those filters with `realConversations`, server/src/conversations/test-conversations.ts).
-- Set once, when the conversation is created, and never changed: the triggers count a
-- conversation and its messages at insert time.
alter table conversations add column is_test boolean not null default false;

-- As in 015, without the messages and replies of test conversations.
create or replace function analytics_messages_inserted() returns trigger language plpgsql as $$
begin
  insert into usage_rollups as t (account_id, hour, shard, messages)
  select m.account_id, analytics_hour(m.created_at), analytics_shard(), count(*) from new_rows m
  where not exists (select 1 from conversations c where c.id = m.conversation_id and c.is_test)
  group by 1, 2
  on conflict (account_id, hour, shard) do update set messages = t.messages + excluded.messages;
  perform analytics_add_replies(array(
    -- A lookup per reply, not a join: the planner knows nothing of a transition table's size and
    -- may scan it once per conversation.
    select row(m.seq, m.account_id, m.conversation_id, m.source, m.intent, m.confidence, m.latency_ms, m.created_at,
               coalesce(c.bot_id, ''), coalesce(c.agent_id, ''))::analytics_reply
    from new_rows m cross join lateral (
      select bot_id, agent_id from conversations where id = m.conversation_id and account_id = m.account_id and not is_test
    ) c
    where m.role = 'assistant'), array['hour', 'day']);
  return null;
end $$;

create or replace function analytics_conversations_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into usage_rollups as t (account_id, hour, shard, conversations)
    select account_id, analytics_hour(created_at), analytics_shard(), count(*) from new_rows where not is_test group by 1, 2
    on conflict (account_id, hour, shard) do update set conversations = t.conversations + excluded.conversations;
  else
    insert into usage_rollups as t (account_id, hour, shard, conversations)
    select account_id, analytics_hour(created_at), analytics_shard(), -count(*) from old_rows o
    where not o.is_test and exists (select 1 from accounts a where a.id = o.account_id)
    group by 1, 2
    on conflict (account_id, hour, shard) do update set conversations = t.conversations + excluded.conversations;
  end if;
  return null;
end $$;

create or replace function analytics_stored_replies(account text, at timestamptz, grain text) returns analytics_reply[] language sql stable as $$
  select array(
    select row(m.seq, m.account_id, m.conversation_id, m.source, m.intent, m.confidence, m.latency_ms, m.created_at,
               coalesce(c.bot_id, ''), coalesce(c.agent_id, ''))::analytics_reply
    from messages m join conversations c on c.id = m.conversation_id and c.account_id = m.account_id and not c.is_test
    where m.account_id = account and m.role = 'assistant'
      and m.created_at >= at and m.created_at < at + case grain when 'day' then interval '24 hours' else interval '1 hour' end)
$$;

create or replace function analytics_rebuild(account text, rebuilt_grain text, at timestamptz) returns void language plpgsql as $$
begin
  delete from reply_rollups where account_id = account and grain = rebuilt_grain and start = at;
  delete from intent_rollups where account_id = account and grain = rebuilt_grain and start = at;
  delete from unanswered_rollups where account_id = account and grain = rebuilt_grain and start = at;
  if rebuilt_grain = 'hour' then
    delete from reply_conversation_rollups where account_id = account and hour = at;
    update usage_rollups set messages = 0 where account_id = account and hour = at;
    insert into usage_rollups as t (account_id, hour, shard, messages)
    select account, at, analytics_shard(), count(*) from messages m
    where m.account_id = account and m.created_at >= at and m.created_at < at + interval '1 hour'
      and not exists (select 1 from conversations c where c.id = m.conversation_id and c.is_test)
    on conflict (account_id, hour, shard) do update set messages = excluded.messages;
  end if;
  perform analytics_add_replies(analytics_stored_replies(account, at, rebuilt_grain), array[rebuilt_grain]);
end $$;

-- As in 011 (with 015's shard key), without test conversations and their messages.
create or replace function analytics_backfill(account text) returns void language plpgsql as $$
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
  select account_id, analytics_hour(created_at), count(*) from conversations where account_id = account and not is_test group by 1, 2;
  insert into usage_rollups as t (account_id, hour, messages)
  select m.account_id, analytics_hour(m.created_at), count(*) from messages m
  where m.account_id = account and not exists (select 1 from conversations c where c.id = m.conversation_id and c.is_test)
  group by 1, 2
  on conflict (account_id, hour, shard) do update set messages = excluded.messages;

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
