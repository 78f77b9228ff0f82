-- Lookups in the turn's triggers go through a key, never a scan a stale plan could choose.
--
-- The question before each fallback, as in 015 except that the lookup also named the account: a
-- plan made while `messages` was small (a fresh database before autovacuum's first ANALYZE; PGlite
-- has no autovacuum at all; PL/pgSQL keeps its plans) could walk the account's index instead,
-- reading every message of the account for each fallback. Chat turns on PostgreSQL then ran at
-- half their rate or worse from one run to the next. A conversation id names one account already;
-- without the account the only index that fits is (conversation_id, seq), read backwards for one row.
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
    where m.conversation_id = r.conversation_id and m.seq < r.seq and m.role = 'user'
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

-- As in 025, with each message's conversation read by its key: a join let the planner hash the
-- whole conversations table (its estimate of a transition table's size is a guess) once per
-- stored turn whenever a webhook subscription exists.
create or replace function webhooks_messages_inserted() returns trigger language plpgsql as $$
begin
  if webhooks_any() then
    perform webhook_enqueue(m.account_id, 'message.created',
      jsonb_build_object('message', to_jsonb(m), 'bot_id', c.bot_id, 'agent_id', c.agent_id, 'user_id', c.user_id))
    from new_rows m cross join lateral (
      select bot_id, agent_id, user_id from conversations where id = m.conversation_id
    ) c
    where m.role <> 'note'
    order by m.seq;
  end if;
  return null;
end $$;

-- As 023 wrote it and 033 left it (notes count nowhere), with both conversation lookups by key:
-- the test-conversation filter was a `not exists` the planner could run as a hash anti-join over a
-- scan of the whole conversations table, and the replies' lookup also named the account, which let
-- a stale plan walk the account's conversations instead of the primary key.
create or replace function analytics_messages_inserted() returns trigger language plpgsql as $$
begin
  insert into usage_rollups as t (account_id, hour, shard, messages)
  select m.account_id, analytics_hour(m.created_at), analytics_shard(), count(*)
  from new_rows m cross join lateral (select is_test from conversations where id = m.conversation_id) c
  where m.role <> 'note' and not c.is_test
  group by 1, 2
  on conflict (account_id, hour, shard) do update set messages = t.messages + excluded.messages;
  perform analytics_add_replies(array(
    -- A lookup per reply, not a join: the planner knows nothing of a transition table's size and
    -- may scan it once per conversation.
    select row(m.seq, m.account_id, m.conversation_id, m.source, m.intent, m.confidence, m.latency_ms, m.created_at,
               coalesce(c.bot_id, ''), coalesce(c.agent_id, ''))::analytics_reply
    from new_rows m cross join lateral (
      select bot_id, agent_id from conversations where id = m.conversation_id and not is_test
    ) c
    where m.role = 'assistant'), array['hour', 'day']);
  return null;
end $$;
