-- Outgoing webhooks (webhooks/): an account subscribes URLs to events; every event is a delivery
-- row per subscription that takes it, written by the triggers below in the transaction that stores
-- what it describes (a message, a conversation, a handoff status, feedback), so an event exists if
-- and only if its cause was committed. A worker on every instance sends them (webhooks/delivery.ts).
create table webhook_subscriptions (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  url text not null,
  description text not null default '',
  -- The event types it takes, a JSON array of strings (`events ? 'message.created'`).
  events jsonb not null,
  enabled boolean not null default true,
  -- `whsec_` + base64 of 32 random bytes: the HMAC key of Standard Webhooks signatures. The service
  -- must read it to sign, so it is stored as is; the API returns it only when it is made.
  secret text not null,
  -- Since when every try has failed (null: the last one succeeded); the worker disables the
  -- subscription once this is older than its limit, saying why in `disabled_reason`.
  failing_since timestamptz,
  disabled_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_subscriptions_account on webhook_subscriptions (account_id, created_at);

-- One event for one subscription. `event_id` is the `webhook-id` receivers deduplicate on: the
-- same on every try and for every subscription of that event. `data` is what the event describes,
-- as it was when it happened. `next_attempt_at` null: due now (never tried).
create table webhook_deliveries (
  seq bigint generated always as identity,
  id text primary key,
  subscription_id text not null references webhook_subscriptions(id) on delete cascade,
  account_id text not null,
  event_id text not null,
  type text not null,
  data jsonb not null,
  occurred_at timestamptz not null default now(),
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_status integer,
  last_error text,
  -- The start of the receiver's last answer, at most 1 KiB.
  last_response text,
  delivered_at timestamptz
);
create index webhook_deliveries_due on webhook_deliveries (seq) where status = 'pending';
create index webhook_deliveries_log on webhook_deliveries (subscription_id, seq desc);

-- The deliveries of one event: one per enabled subscription of the account that takes its type.
create function webhook_enqueue(p_account text, p_type text, p_data jsonb) returns void language sql as $$
  insert into webhook_deliveries (id, subscription_id, account_id, event_id, type, data)
  select 'dlv_' || replace(gen_random_uuid()::text, '-', ''), s.id, p_account, e.id, p_type, p_data
  from (select 'evt_' || replace(gen_random_uuid()::text, '-', '') as id) e, webhook_subscriptions s
  where s.account_id = p_account and s.enabled and s.events ? p_type
$$;

-- An install without subscriptions pays one probe per statement, nothing per row.
create function webhooks_any() returns boolean language sql stable as $$
  select exists (select 1 from webhook_subscriptions where enabled)
$$;

create function webhooks_messages_inserted() returns trigger language plpgsql as $$
begin
  if webhooks_any() then
    perform webhook_enqueue(m.account_id, 'message.created',
      jsonb_build_object('message', to_jsonb(m), 'bot_id', c.bot_id, 'agent_id', c.agent_id, 'user_id', c.user_id))
    from new_rows m join conversations c on c.id = m.conversation_id
    order by m.seq;
  end if;
  return null;
end $$;
create trigger messages_webhooks after insert on messages
  referencing new table as new_rows for each statement execute function webhooks_messages_inserted();

create function webhooks_conversations_inserted() returns trigger language plpgsql as $$
begin
  if webhooks_any() then
    perform webhook_enqueue(c.account_id, 'conversation.started',
      jsonb_build_object('conversation', jsonb_build_object('id', c.id, 'bot_id', c.bot_id, 'agent_id', c.agent_id, 'user_id', c.user_id, 'created_at', c.created_at)))
    from new_rows c;
  end if;
  return null;
end $$;
create trigger conversations_webhooks_insert after insert on conversations
  referencing new table as new_rows for each statement execute function webhooks_conversations_inserted();

-- Handoff: `waiting` is a request for a person, `with_person` one taking it, `closed` the end.
create function webhooks_status_changed() returns trigger language plpgsql as $$
declare
  kind text := case new.status when 'waiting' then 'handoff.requested' when 'with_person' then 'handoff.taken' when 'closed' then 'handoff.closed' end;
begin
  if kind is not null and webhooks_any() then
    perform webhook_enqueue(new.account_id, kind, jsonb_build_object(
      'conversation_id', new.id, 'bot_id', new.bot_id, 'user_id', new.user_id, 'status', new.status,
      'operator_id', new.operator_id, 'waiting_since', new.waiting_since));
  end if;
  return null;
end $$;
create trigger conversations_webhooks_status after update of status on conversations
  for each row when (old.status is distinct from new.status) execute function webhooks_status_changed();

-- Feedback given, or given again (a changed rating, reason or comment).
create function webhooks_feedback_given() returns trigger language plpgsql as $$
begin
  if webhooks_any() then
    perform webhook_enqueue(new.account_id, 'feedback.given', jsonb_build_object(
      'message_id', new.message_id, 'conversation_id', new.conversation_id, 'bot_id', new.bot_id,
      'agent_id', new.agent_id, 'user_id', nullif(new.user_id, ''), 'rating', new.rating,
      'reason', new.reason, 'comment', new.comment, 'given_at', new.updated_at));
  end if;
  return null;
end $$;
create trigger message_feedback_webhooks after insert or update on message_feedback
  for each row execute function webhooks_feedback_given();
