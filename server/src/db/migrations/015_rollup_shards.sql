-- Throughput on PostgreSQL: the analytics rollups of migration 008 are counters that
-- every stored turn adds to in its own transaction, and a few of their rows are hot — one
-- usage_rollups row per account and hour takes every conversation and message, the whole-account
-- ('*') reply rows every reply. A row updated by one transaction is locked until that transaction
-- commits, so concurrent turns queued behind each other's commit (a WAL flush each): measured on
-- PostgreSQL at concurrency 50, most sessions were waiting for such a lock and chat reached ~0.1 of
-- the no-op ceiling.
--
-- Each counter row is now split by `shard`: the writing session's backend pid modulo 8. One session
-- runs one transaction at a time, so two concurrent transactions only meet on a row when their
-- sessions share a shard. Reports already add rows up (`sum(...)` per bucket, per intent, per
-- question), so they read the same totals; a period holds at most 8 rows where it held one. On
-- embedded PGlite there is one session: everything stays in one shard, as before.
-- reply_conversation_rollups is not split: its rows are per conversation, whose turns take turns anyway.

create function analytics_shard() returns smallint language sql volatile as
$$ select (pg_backend_pid() % 8)::smallint $$;

alter table request_rollups add column shard smallint not null default 0, alter column shard set default analytics_shard();
alter table request_rollups drop constraint request_rollups_pkey, add primary key (account_id, hour, method, route, status, shard);
alter table usage_rollups add column shard smallint not null default 0, alter column shard set default analytics_shard();
alter table usage_rollups drop constraint usage_rollups_pkey, add primary key (account_id, hour, shard);
alter table reply_rollups add column shard smallint not null default 0, alter column shard set default analytics_shard();
alter table reply_rollups drop constraint reply_rollups_pkey, add primary key (account_id, grain, start, bot_id, agent_id, latency_ms, shard);
alter table intent_rollups add column shard smallint not null default 0, alter column shard set default analytics_shard();
alter table intent_rollups drop constraint intent_rollups_pkey, add primary key (account_id, grain, start, bot_id, agent_id, intent, shard);
alter table unanswered_rollups add column shard smallint not null default 0, alter column shard set default analytics_shard();
alter table unanswered_rollups drop constraint unanswered_rollups_pkey,
  add primary key (account_id, grain, start, bot_id, agent_id, question_key, shard);

-- Folds an account's rollup rows into shard 0: the same totals in the fewest rows, for maintenance
-- (fewer rows for the reports to add up) and for comparing rollups row by row (tests).
create function analytics_fold_shards(account text) returns void language plpgsql as $$
begin
  with gone as (delete from request_rollups where account_id = account returning *)
  insert into request_rollups (account_id, hour, method, route, status, shard, requests)
  select account_id, hour, method, route, status, 0, sum(requests) from gone group by 1, 2, 3, 4, 5;
  with gone as (delete from usage_rollups where account_id = account returning *)
  insert into usage_rollups (account_id, hour, shard, messages, conversations)
  select account_id, hour, 0, sum(messages), sum(conversations) from gone group by 1, 2;
  with gone as (delete from reply_rollups where account_id = account returning *)
  insert into reply_rollups (account_id, grain, start, bot_id, agent_id, latency_ms, shard, replies, fallbacks, confidence_sum, confidences)
  select account_id, grain, start, bot_id, agent_id, latency_ms, 0, sum(replies), sum(fallbacks), sum(confidence_sum), sum(confidences)
  from gone group by 1, 2, 3, 4, 5, 6;
  with gone as (delete from intent_rollups where account_id = account returning *)
  insert into intent_rollups (account_id, grain, start, bot_id, agent_id, intent, shard, replies)
  select account_id, grain, start, bot_id, agent_id, intent, 0, sum(replies) from gone group by 1, 2, 3, 4, 5, 6;
  with gone as (delete from unanswered_rollups where account_id = account returning *)
  insert into unanswered_rollups (account_id, grain, start, bot_id, agent_id, question_key, shard, asked, last_asked_at, question)
  select account_id, grain, start, bot_id, agent_id, question_key, 0, sum(asked), max(last_asked_at),
         (array_agg(question order by last_asked_at desc))[1]
  from gone group by 1, 2, 3, 4, 5, 6;
end $$;

-- As in 008, each upsert now into this session's shard.
create or replace function analytics_add_replies(replies analytics_reply[], grains text[]) returns void language plpgsql as $$
declare
  s smallint := analytics_shard();
begin
  insert into reply_rollups as t (account_id, grain, start, bot_id, agent_id, latency_ms, shard, replies, fallbacks, confidence_sum, confidences)
  select r.account_id, g.grain, analytics_start(g.grain, r.created_at), d.bot_id, d.agent_id, coalesce(r.latency_ms, -1), s,
         count(*), count(*) filter (where r.source = 'fallback'), coalesce(sum(r.confidence), 0), count(r.confidence)
  from unnest(replies) r cross join unnest(grains) g(grain)
  cross join lateral (values (r.bot_id, r.agent_id), ('*', '*')) d(bot_id, agent_id)
  group by 1, 2, 3, 4, 5, 6
  on conflict (account_id, grain, start, bot_id, agent_id, latency_ms, shard) do update set
    replies = t.replies + excluded.replies, fallbacks = t.fallbacks + excluded.fallbacks,
    confidence_sum = t.confidence_sum + excluded.confidence_sum, confidences = t.confidences + excluded.confidences;

  insert into intent_rollups as t (account_id, grain, start, bot_id, agent_id, intent, shard, replies)
  select r.account_id, g.grain, analytics_start(g.grain, r.created_at), d.bot_id, d.agent_id, r.intent, s, count(*)
  from unnest(replies) r cross join unnest(grains) g(grain)
  cross join lateral (values (r.bot_id, r.agent_id), ('*', '*')) d(bot_id, agent_id)
  where r.intent is not null group by 1, 2, 3, 4, 5, 6
  on conflict (account_id, grain, start, bot_id, agent_id, intent, shard) do update set replies = t.replies + excluded.replies;

  -- Each fallback paired with the user message just before it in its conversation.
  insert into unanswered_rollups as t (account_id, grain, start, bot_id, agent_id, question_key, shard, asked, last_asked_at, question)
  select r.account_id, g.grain, analytics_start(g.grain, r.created_at), d.bot_id, d.agent_id, lower(btrim(u.content)), s,
         count(*), max(u.created_at), left(btrim((array_agg(u.content order by u.created_at desc))[1]), 200)
  from unnest(replies) r
  cross join lateral (
    select m.content, m.created_at from messages m
    where m.conversation_id = r.conversation_id and m.account_id = r.account_id and m.role = 'user' and m.seq < r.seq
    order by m.seq desc limit 1
  ) u
  cross join unnest(grains) g(grain)
  cross join lateral (values (r.bot_id, r.agent_id), ('*', '*')) d(bot_id, agent_id)
  where r.source = 'fallback'
  group by 1, 2, 3, 4, 5, 6
  on conflict (account_id, grain, start, bot_id, agent_id, question_key, shard) do update set
    asked = t.asked + excluded.asked,
    question = case when excluded.last_asked_at >= t.last_asked_at then excluded.question else t.question end,
    last_asked_at = greatest(t.last_asked_at, excluded.last_asked_at);

  if 'hour' = any(grains) then
    insert into reply_conversation_rollups as t (account_id, hour, conversation_id, bot_id, agent_id, last_seq, last_fallback)
    select distinct on (1, 2, 3) r.account_id, analytics_start('hour', r.created_at), r.conversation_id, r.bot_id, r.agent_id, r.seq,
           coalesce(r.source = 'fallback', false)
    from unnest(replies) r order by 1, 2, 3, r.seq desc
    on conflict (account_id, hour, conversation_id) do update set
      last_fallback = case when excluded.last_seq > t.last_seq then excluded.last_fallback else t.last_fallback end,
      last_seq = greatest(t.last_seq, excluded.last_seq);
  end if;
end $$;

-- As in 008; the hour's message count is set on this session's shard after zeroing the others.
create or replace function analytics_rebuild(account text, rebuilt_grain text, at timestamptz) returns void language plpgsql as $$
begin
  delete from reply_rollups where account_id = account and grain = rebuilt_grain and start = at;
  delete from intent_rollups where account_id = account and grain = rebuilt_grain and start = at;
  delete from unanswered_rollups where account_id = account and grain = rebuilt_grain and start = at;
  if rebuilt_grain = 'hour' then
    delete from reply_conversation_rollups where account_id = account and hour = at;
    update usage_rollups set messages = 0 where account_id = account and hour = at;
    insert into usage_rollups as t (account_id, hour, shard, messages)
    select account, at, analytics_shard(), count(*) from messages
    where account_id = account and created_at >= at and created_at < at + interval '1 hour'
    on conflict (account_id, hour, shard) do update set messages = excluded.messages;
  end if;
  perform analytics_add_replies(analytics_stored_replies(account, at, rebuilt_grain), array[rebuilt_grain]);
end $$;

create or replace function analytics_messages_inserted() returns trigger language plpgsql as $$
begin
  insert into usage_rollups as t (account_id, hour, shard, messages)
  select account_id, analytics_hour(created_at), analytics_shard(), count(*) from new_rows group by 1, 2
  on conflict (account_id, hour, shard) do update set messages = t.messages + excluded.messages;
  perform analytics_add_replies(array(
    -- A lookup per reply, not a join: the planner knows nothing of a transition table's size and
    -- may scan it once per conversation.
    select row(m.seq, m.account_id, m.conversation_id, m.source, m.intent, m.confidence, m.latency_ms, m.created_at,
               coalesce(c.bot_id, ''), coalesce(c.agent_id, ''))::analytics_reply
    from new_rows m cross join lateral (
      select bot_id, agent_id from conversations where id = m.conversation_id and account_id = m.account_id
    ) c
    where m.role = 'assistant'), array['hour', 'day']);
  return null;
end $$;

-- A delete subtracts on this session's shard (the hour's total is the sum over shards), for
-- accounts that still exist: an account's own delete cascades here after its rollups are gone.
create or replace function analytics_conversations_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into usage_rollups as t (account_id, hour, shard, conversations)
    select account_id, analytics_hour(created_at), analytics_shard(), count(*) from new_rows group by 1, 2
    on conflict (account_id, hour, shard) do update set conversations = t.conversations + excluded.conversations;
  else
    insert into usage_rollups as t (account_id, hour, shard, conversations)
    select account_id, analytics_hour(created_at), analytics_shard(), -count(*) from old_rows o
    where exists (select 1 from accounts a where a.id = o.account_id)
    group by 1, 2
    on conflict (account_id, hour, shard) do update set conversations = t.conversations + excluded.conversations;
  end if;
  return null;
end $$;

create or replace function analytics_requests_inserted() returns trigger language plpgsql as $$
begin
  insert into request_rollups as t (account_id, hour, method, route, status, shard, requests)
  select account_id, analytics_hour(created_at), method, route, status, analytics_shard(), count(*) from new_rows
  where account_id is not null and exists (select 1 from accounts a where a.id = new_rows.account_id)
  group by 1, 2, 3, 4, 5
  on conflict (account_id, hour, method, route, status, shard) do update set requests = t.requests + excluded.requests;
  return null;
end $$;

-- analytics_backfill (011) writes an account's rollups from scratch, all in shard 0; its one upsert
-- (the messages of an hour onto the conversations row it just wrote) names the old key. Only that
-- clause changes, the rest of the function stays as 011 defines it.
do $$
declare
  definition text;
begin
  if to_regprocedure('analytics_backfill(text)') is not null then
    definition := pg_get_functiondef('analytics_backfill(text)'::regprocedure);
    if position('on conflict (account_id, hour) do' in definition) > 0 then
      execute replace(definition, 'on conflict (account_id, hour) do', 'on conflict (account_id, hour, shard) do');
    end if;
  end if;
end $$;
