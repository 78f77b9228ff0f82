-- Emails to the team about a conversation nobody took within the configured minutes: one row per
-- waiting spell (a conversation that waits again later has a new `waiting_since`, so it is emailed
-- again). Inserting the row claims the email, so of several instances exactly one sends it.
create table waiting_emails (
  conversation_id text not null references conversations(id) on delete cascade,
  waiting_since timestamptz not null,
  account_id text not null references accounts(id) on delete cascade,
  sent_at timestamptz not null default now(),
  primary key (conversation_id, waiting_since)
);
