-- Hourly rollups of the analytics reports (every report p95 ≤ 100 ms with 1,000,000
-- stored messages). A report reads whole hours of its range from these tables and only the partial
-- hours at its two ends from the raw rows (`analytics/plan.ts`), so its answer is the same as the
-- raw computation: the counts, the latency percentiles (a histogram of the exact integer
-- milliseconds, not of buckets), the intents and the unanswered questions.
--
-- Maintained by triggers, in the transaction of the write: inserts add to them; deleting messages
-- rebuilds the hours they were in from what is left (a deleted conversation is no longer counted,
-- as in the raw reports: they report stored traffic; the `deleted` counts of the usage report say
-- what went). bot_id/agent_id are '' for none, so that they can be part of a primary key.
--
-- The reply rollups come in two grains, 'hour' and 'day' (`start` is the UTC hour or day), and every
-- reply is counted twice per grain: under its bot and agent, and under bot_id = agent_id = '*' (the
-- whole account). A report over a week then reads ~7 day rows per value instead of ~168 × bots hour rows.

-- Requests per hour and endpoint (the usage report's requests, errors and endpoints).
create table request_rollups (
  account_id text not null references accounts(id) on delete cascade,
  hour timestamptz not null,
  method text not null,
  route text not null,
  status integer not null,
  requests bigint not null,
  primary key (account_id, hour, method, route, status)
);

-- Messages and conversations created per hour (the usage report).
create table usage_rollups (
  account_id text not null references accounts(id) on delete cascade,
  hour timestamptz not null,
  messages bigint not null default 0,
  conversations bigint not null default 0,
  primary key (account_id, hour)
);

-- Assistant replies per hour, bot, agent and latency (-1: none): the performance report's counts,
-- and its percentiles from the exact latency histogram.
create table reply_rollups (
  account_id text not null references accounts(id) on delete cascade,
  grain text not null,
  start timestamptz not null,
  bot_id text not null,
  agent_id text not null,
  latency_ms integer not null,
  replies bigint not null,
  fallbacks bigint not null,
  confidence_sum double precision not null,
  confidences bigint not null,
  primary key (account_id, grain, start, bot_id, agent_id, latency_ms)
);

-- Per conversation and hour (this one only hourly: a conversation rarely spans hours, so a coarser
-- grain would not have fewer rows): its last reply in that hour (distinct conversations, resolution).
create table reply_conversation_rollups (
  account_id text not null references accounts(id) on delete cascade,
  hour timestamptz not null,
  conversation_id text not null,
  bot_id text not null,
  agent_id text not null,
  last_seq bigint not null,
  last_fallback boolean not null,
  primary key (account_id, hour, conversation_id)
);

-- Replies per hour, bot, agent and intent (top intents).
create table intent_rollups (
  account_id text not null references accounts(id) on delete cascade,
  grain text not null,
  start timestamptz not null,
  bot_id text not null,
  agent_id text not null,
  intent text not null,
  replies bigint not null,
  primary key (account_id, grain, start, bot_id, agent_id, intent)
);

-- Fallback replies per hour (of the reply), bot, agent and question (the user message before the
-- fallback, lower-cased and trimmed): how many, when last asked, and the latest wording.
create table unanswered_rollups (
  account_id text not null references accounts(id) on delete cascade,
  grain text not null,
  start timestamptz not null,
  bot_id text not null,
  agent_id text not null,
  question_key text not null,
  asked bigint not null,
  last_asked_at timestamptz not null,
  question text not null,
  primary key (account_id, grain, start, bot_id, agent_id, question_key)
);

create function analytics_hour(at timestamptz) returns timestamptz language sql immutable as
$$ select date_trunc('hour', at at time zone 'UTC') at time zone 'UTC' $$;

-- An assistant reply as the rollups need it.
create type analytics_reply as (
  seq bigint, account_id text, conversation_id text, source text, intent text, confidence double precision,
  latency_ms integer, created_at timestamptz, bot_id text, agent_id text
);

create function analytics_start(grain text, at timestamptz) returns timestamptz language sql immutable as
$$ select date_trunc(grain, at at time zone 'UTC') at time zone 'UTC' $$;

-- Adds replies to the reply rollups of these grains (shared by the insert trigger and the rebuild).
create function analytics_add_replies(replies analytics_reply[], grains text[]) returns void language plpgsql as $$
begin
  insert into reply_rollups as t (account_id, grain, start, bot_id, agent_id, latency_ms, replies, fallbacks, confidence_sum, confidences)
  select r.account_id, g.grain, analytics_start(g.grain, r.created_at), d.bot_id, d.agent_id, coalesce(r.latency_ms, -1),
         count(*), count(*) filter (where r.source = 'fallback'), coalesce(sum(r.confidence), 0), count(r.confidence)
  from unnest(replies) r cross join unnest(grains) g(grain)
  cross join lateral (values (r.bot_id, r.agent_id), ('*', '*')) d(bot_id, agent_id)
  group by 1, 2, 3, 4, 5, 6
  on conflict (account_id, grain, start, bot_id, agent_id, latency_ms) do update set
    replies = t.replies + excluded.replies, fallbacks = t.fallbacks + excluded.fallbacks,
    confidence_sum = t.confidence_sum + excluded.confidence_sum, confidences = t.confidences + excluded.confidences;

  insert into intent_rollups as t (account_id, grain, start, bot_id, agent_id, intent, replies)
  select r.account_id, g.grain, analytics_start(g.grain, r.created_at), d.bot_id, d.agent_id, r.intent, count(*)
  from unnest(replies) r cross join unnest(grains) g(grain)
  cross join lateral (values (r.bot_id, r.agent_id), ('*', '*')) d(bot_id, agent_id)
  where r.intent is not null group by 1, 2, 3, 4, 5, 6
  on conflict (account_id, grain, start, bot_id, agent_id, intent) do update set replies = t.replies + excluded.replies;

  -- Each fallback paired with the user message just before it in its conversation.
  insert into unanswered_rollups as t (account_id, grain, start, bot_id, agent_id, question_key, asked, last_asked_at, question)
  select r.account_id, g.grain, analytics_start(g.grain, r.created_at), d.bot_id, d.agent_id, lower(btrim(u.content)),
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
  on conflict (account_id, grain, start, bot_id, agent_id, question_key) do update set
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

-- The replies stored in [at, at + 1 grain) of one account, as the rollups need them.
create function analytics_stored_replies(account text, at timestamptz, grain text) returns analytics_reply[] language sql stable as $$
  select array(
    select row(m.seq, m.account_id, m.conversation_id, m.source, m.intent, m.confidence, m.latency_ms, m.created_at,
               coalesce(c.bot_id, ''), coalesce(c.agent_id, ''))::analytics_reply
    from messages m join conversations c on c.id = m.conversation_id and c.account_id = m.account_id
    where m.account_id = account and m.role = 'assistant'
      and m.created_at >= at and m.created_at < at + case grain when 'day' then interval '1 day' else interval '1 hour' end)
$$;

-- Rebuilds the message-derived rollups of one hour or day of one account from the stored messages.
create function analytics_rebuild(account text, rebuilt_grain text, at timestamptz) returns void language plpgsql as $$
begin
  delete from reply_rollups where account_id = account and grain = rebuilt_grain and start = at;
  delete from intent_rollups where account_id = account and grain = rebuilt_grain and start = at;
  delete from unanswered_rollups where account_id = account and grain = rebuilt_grain and start = at;
  if rebuilt_grain = 'hour' then
    delete from reply_conversation_rollups where account_id = account and hour = at;
    insert into usage_rollups as t (account_id, hour, messages)
    select account, at, count(*) from messages
    where account_id = account and created_at >= at and created_at < at + interval '1 hour'
    on conflict (account_id, hour) do update set messages = excluded.messages;
  end if;
  perform analytics_add_replies(analytics_stored_replies(account, at, rebuilt_grain), array[rebuilt_grain]);
end $$;

create function analytics_messages_inserted() returns trigger language plpgsql as $$
begin
  insert into usage_rollups as t (account_id, hour, messages)
  select account_id, analytics_hour(created_at), count(*) from new_rows group by 1, 2
  on conflict (account_id, hour) do update set messages = t.messages + excluded.messages;
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
create trigger messages_rollups_insert after insert on messages
  referencing new table as new_rows for each statement execute function analytics_messages_inserted();

-- A deleted message may have been the question of a fallback that stays, or the last reply of a
-- conversation in its hour: the hours it was in are rebuilt rather than patched.
create function analytics_messages_deleted() returns trigger language plpgsql as $$
declare
  target record;
begin
  for target in
    select distinct o.account_id, g.grain, analytics_start(g.grain, o.created_at) as start
    from old_rows o cross join (values ('hour'), ('day')) g(grain)
    where exists (select 1 from accounts a where a.id = o.account_id)
  loop
    perform analytics_rebuild(target.account_id, target.grain, target.start);
  end loop;
  return null;
end $$;
create trigger messages_rollups_delete after delete on messages
  referencing old table as old_rows for each statement execute function analytics_messages_deleted();

create function analytics_conversations_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into usage_rollups as t (account_id, hour, conversations)
    select account_id, analytics_hour(created_at), count(*) from new_rows group by 1, 2
    on conflict (account_id, hour) do update set conversations = t.conversations + excluded.conversations;
  else
    update usage_rollups t set conversations = t.conversations - d.count
    from (select account_id, analytics_hour(created_at) as hour, count(*) as count from old_rows group by 1, 2) d
    where t.account_id = d.account_id and t.hour = d.hour;
  end if;
  return null;
end $$;
create trigger conversations_rollups_insert after insert on conversations
  referencing new table as new_rows for each statement execute function analytics_conversations_changed();
create trigger conversations_rollups_delete after delete on conversations
  referencing old table as old_rows for each statement execute function analytics_conversations_changed();

create function analytics_requests_inserted() returns trigger language plpgsql as $$
begin
  insert into request_rollups as t (account_id, hour, method, route, status, requests)
  select account_id, analytics_hour(created_at), method, route, status, count(*) from new_rows
  where account_id is not null and exists (select 1 from accounts a where a.id = new_rows.account_id)
  group by 1, 2, 3, 4, 5
  on conflict (account_id, hour, method, route, status) do update set requests = t.requests + excluded.requests;
  return null;
end $$;
create trigger api_requests_rollups_insert after insert on api_requests
  referencing new table as new_rows for each statement execute function analytics_requests_inserted();

-- Backfill: everything stored before this migration.
insert into request_rollups (account_id, hour, method, route, status, requests)
select account_id, analytics_hour(created_at), method, route, status, count(*) from api_requests r
where account_id is not null and exists (select 1 from accounts a where a.id = r.account_id)
group by 1, 2, 3, 4, 5;
insert into usage_rollups (account_id, hour, conversations)
select account_id, analytics_hour(created_at), count(*) from conversations group by 1, 2;
insert into usage_rollups as t (account_id, hour, messages)
select account_id, analytics_hour(created_at), count(*) from messages group by 1, 2
on conflict (account_id, hour) do update set messages = excluded.messages;
select analytics_add_replies(array(
  select row(m.seq, m.account_id, m.conversation_id, m.source, m.intent, m.confidence, m.latency_ms, m.created_at,
             coalesce(c.bot_id, ''), coalesce(c.agent_id, ''))::analytics_reply
  from messages m join conversations c on c.id = m.conversation_id and c.account_id = m.account_id
  where m.role = 'assistant'), array['hour', 'day']);
analyze request_rollups, usage_rollups, reply_rollups, reply_conversation_rollups, intent_rollups, unanswered_rollups;
