-- The unanswered question's text, when two askings with the same key are equally recent: the
-- incremental rollup kept whichever was written last and a rebuild whichever the aggregate met
-- first, so the two could disagree ('Where is my order' against 'where is my order'). Both now keep
-- the greatest (asked at, text) pair. As in 034 otherwise.
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
         count(*), max(u.created_at), (array_agg(left(btrim(u.content), 200) order by u.created_at desc, left(btrim(u.content), 200) desc))[1]
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
    question = case when (excluded.last_asked_at, excluded.question) > (t.last_asked_at, t.question) then excluded.question else t.question end,
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
