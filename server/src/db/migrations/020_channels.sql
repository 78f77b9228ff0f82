-- Channels: a bot answers on messaging platforms (channels/). One row per bot and platform.
-- `settings`: what the platform needs that is no secret (WhatsApp's phone number id); `secrets`: the
-- credentials, AES-256-GCM encrypted (channels/secrets.ts: {key_id, iv, tag, data}), never returned.
create table channels (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  bot_id text not null references bots(id) on delete cascade,
  type text not null check (type in ('telegram', 'whatsapp')),
  settings jsonb not null default '{}',
  secrets jsonb not null,
  -- Health: the last message received from the platform, and the last send that failed for good.
  last_received_at timestamptz,
  last_sent_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (bot_id, type)
);
create index channels_account on channels (account_id);

-- Every message a platform delivered, stored before the webhook is acknowledged. The unique pair
-- makes a replayed delivery one row, so one turn. `chat` is the platform's conversation (Telegram
-- chat id, WhatsApp wa_id): rows of one chat are processed in id order (channels/inbound.ts).
create table channel_inbound (
  id bigint generated always as identity primary key,
  channel_id text not null references channels(id) on delete cascade,
  external_id text not null,
  chat text not null,
  event jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
  attempts integer not null default 0,
  -- A worker holds the row until then (a crashed worker's claim expires).
  locked_until timestamptz,
  next_attempt_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  unique (channel_id, external_id)
);
create index channel_inbound_pending on channel_inbound (channel_id, chat, id) where status = 'pending';

-- Replies to send to the platform: one per stored message (the bot's reply, an operator's), in id
-- order per chat. `sending` is recorded before the request leaves and `sent` after its answer, so a
-- restart never sends a reply whose request may have reached the platform (channels/outbox.ts).
create table channel_outbox (
  id bigint generated always as identity primary key,
  channel_id text not null references channels(id) on delete cascade,
  chat text not null,
  message_id text not null,
  reply jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'unconfirmed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  sending_since timestamptz,
  external_id text,
  delivery_status text,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  unique (channel_id, message_id)
);
create index channel_outbox_due on channel_outbox (next_attempt_at, id) where status = 'pending';
create index channel_outbox_external on channel_outbox (channel_id, external_id) where external_id is not null;

-- Which platform chat a conversation is on: an operator's reply in the inbox goes there.
create table channel_conversations (
  conversation_id text primary key references conversations(id) on delete cascade,
  channel_id text not null references channels(id) on delete cascade,
  chat text not null
);
