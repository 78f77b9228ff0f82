-- Satisfaction (CSAT): a visitor's 1–5 rating of a conversation and an optional comment, at most
-- one per conversation (the primary key: a second one is 409 `csat_already_given`). The bot, agent
-- and the operator who last took the conversation are copied in when it is given, so the report
-- reads this table alone, and an operator is credited even after the conversation left them.
create table conversation_csat (
  conversation_id text primary key references conversations(id) on delete cascade,
  account_id text not null references accounts(id) on delete cascade,
  bot_id text,
  agent_id text,
  user_id text,
  -- null: no person took part (a bot-only conversation), or the operator's user was removed
  operator_id text references users(id) on delete set null,
  rating smallint not null check (rating between 1 and 5),
  comment text,
  created_at timestamptz not null default now()
);
create index conversation_csat_account on conversation_csat (account_id, created_at desc);

-- When the widget asks for a rating, per bot (`PUT /v1/bots/{bot_id}/csat`); no row: after a
-- conversation a person took part in, not after one the bot answered alone.
create table bot_csat (
  bot_id text primary key references bots(id) on delete cascade,
  account_id text not null references accounts(id) on delete cascade,
  after_handoff boolean not null default true,
  after_bot boolean not null default false,
  updated_at timestamptz not null default now()
);

-- The support report's response times start at the handoff requests of a range: status events by time.
create index handoff_events_status_time on handoff_events (account_id, created_at) where type = 'status';

-- Outgoing webhooks (migration 022): `csat.given` in the transaction that stores the rating.
create function webhooks_csat_given() returns trigger language plpgsql as $$
begin
  if webhooks_any() then
    perform webhook_enqueue(new.account_id, 'csat.given', jsonb_build_object(
      'conversation_id', new.conversation_id, 'bot_id', new.bot_id, 'agent_id', new.agent_id,
      'user_id', new.user_id, 'operator_id', new.operator_id, 'rating', new.rating,
      'comment', new.comment, 'given_at', new.created_at));
  end if;
  return null;
end $$;
create trigger conversation_csat_webhooks after insert on conversation_csat
  for each row execute function webhooks_csat_given();
