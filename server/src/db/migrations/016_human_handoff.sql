-- Human handoff. A conversation has a status: `bot` (the bot answers), `waiting` (the
-- visitor asked for a person), `with_person` (an operator took it), `closed` (ended). Transitions are
-- checked by the service (handoff/transitions.ts); the check here keeps any other writer honest.
alter table conversations add column status text not null default 'bot'
  check (status in ('bot', 'waiting', 'with_person', 'closed'));
-- When the visitor asked (the inbox orders by it and shows the wait); null unless waiting or with a person.
alter table conversations add column waiting_since timestamptz;
-- The operator (a dashboard user) who took it; a removed user leaves the conversation unassigned.
alter table conversations add column operator_id text references users(id) on delete set null;
-- The inbox reads only these conversations: a partial index keeps it small however many bot chats exist.
create index conversations_handoff on conversations (account_id, status, waiting_since)
  where status in ('waiting', 'with_person');

-- Operator messages (role `operator`) carry who wrote them, as shown to the visitor at that time.
alter table messages add column author_id text;
alter table messages add column author_name text;
alter table messages add column author_avatar_url text;

-- How a dashboard user appears to visitors when they answer as an operator.
alter table users add column display_name text;
alter table users add column avatar_url text;

-- Everything a live stream delivers that a reconnect must not lose: status changes and messages
-- written while a person is involved. `seq` is the SSE event id: resume from `Last-Event-ID` reads
-- `seq >` it, per conversation (the visitor) or per account (the operator inbox).
create table handoff_events (
  seq bigint generated always as identity primary key,
  account_id text not null references accounts(id) on delete cascade,
  conversation_id text not null references conversations(id) on delete cascade,
  type text not null,
  data jsonb not null,
  created_at timestamptz not null default now()
);
create index handoff_events_conversation on handoff_events (conversation_id, seq);
create index handoff_events_account on handoff_events (account_id, seq);

-- A bot's handoff settings (`PUT /v1/bots/{bot_id}/handoff`); no row: handoff is off.
create table bot_handoff (
  bot_id text primary key references bots(id) on delete cascade,
  account_id text not null references accounts(id) on delete cascade,
  enabled boolean not null,
  after_fallbacks integer,
  intents jsonb not null default '[]',
  -- {time_zone, weekly: [{day, from, to}]}; null: always open (when someone is online).
  hours jsonb,
  updated_at timestamptz not null default now()
);

-- Messages left for a reply while nobody could take the conversation.
create table offline_messages (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  conversation_id text not null references conversations(id) on delete cascade,
  bot_id text,
  user_id text,
  email text not null,
  message text not null,
  created_at timestamptz not null default now()
);
create index offline_messages_account on offline_messages (account_id, created_at desc, id);

-- Operators with the inbox open, touched by their inbox stream: "nobody online" is no fresh row.
create table operator_presence (
  user_id text primary key references users(id) on delete cascade,
  account_id text not null references accounts(id) on delete cascade,
  seen_at timestamptz not null default now()
);
create index operator_presence_account on operator_presence (account_id, seen_at);
