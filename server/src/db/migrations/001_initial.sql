-- The whole v1 schema. One dialect (PostgreSQL) for PGlite and for a real server.
create table accounts (
  id text primary key,
  name text not null,
  rate_limit_points integer,
  rate_limit_duration_seconds integer,
  kb_revision bigint not null default 0,
  created_at timestamptz not null default now()
);

create table api_keys (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  key_hash text not null unique,
  prefix text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);

create table bots (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  name text not null,
  description text not null default '',
  language text not null,
  status text not null,
  training jsonb not null,
  quick_replies jsonb not null default '[]',
  channels jsonb not null default '[]',
  nlu_model jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  trained_at timestamptz
);
create index bots_account_created on bots (account_id, created_at, id);

create table agents (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  name text not null,
  description text not null default '',
  instructions text not null default '',
  language text not null,
  model jsonb not null,
  knowledge jsonb not null,
  examples jsonb not null default '[]',
  training jsonb not null,
  status text not null,
  nlu_model jsonb,
  latest_job_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index agents_account_created on agents (account_id, created_at, id);

create table training_jobs (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  agent_id text not null references agents(id) on delete cascade,
  status text not null,
  holdout real not null,
  metrics jsonb,
  error jsonb,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index training_jobs_agent on training_jobs (agent_id, created_at, id);

create table conversations (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  bot_id text,
  agent_id text,
  user_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index conversations_user on conversations (account_id, user_id, bot_id, updated_at);

create table messages (
  id text primary key,
  seq bigint generated always as identity,
  account_id text not null references accounts(id) on delete cascade,
  conversation_id text not null references conversations(id) on delete cascade,
  role text not null,
  content text not null,
  source text,
  intent text,
  confidence double precision,
  citations jsonb,
  suggestions jsonb,
  latency_ms integer,
  created_at timestamptz not null default now()
);
create index messages_conversation on messages (conversation_id, seq);
create index messages_account_created on messages (account_id, created_at);

create table knowledge_entries (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  title text not null,
  content text not null,
  tags jsonb not null default '[]',
  language text not null,
  source text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index knowledge_account_created on knowledge_entries (account_id, created_at, id);

create table idempotency_keys (
  account_id text not null references accounts(id) on delete cascade,
  key text not null,
  request_hash text not null,
  state text not null,
  response_status integer,
  response_body text,
  created_at timestamptz not null default now(),
  primary key (account_id, key)
);

create table api_requests (
  id bigint generated always as identity primary key,
  account_id text,
  method text not null,
  route text not null,
  status integer not null,
  latency_ms integer not null,
  created_at timestamptz not null default now()
);
create index api_requests_account_created on api_requests (account_id, created_at);
