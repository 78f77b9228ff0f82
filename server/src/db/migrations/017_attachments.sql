-- Attachments. Files a visitor (or an operator) sends with a message, stored in the
-- database: one place to back up, delete with the conversation, and reach from every instance.
-- `data` is bytea; a file is at most `AI_CHAT_MAX_ATTACHMENT_BYTES` (10 MiB by default).

-- A bot's attachment settings: {enabled, types, max_file_bytes, max_files}; null: the defaults (off).
alter table bots add column attachments jsonb;

-- The files of a message, as the message shows them ({id, filename, content_type, size, width,
-- height}), written with the message so history reads no other table.
alter table messages add column attachments jsonb;

create table attachments (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  -- The bot whose limits it met; its conversations are the only ones it can join.
  bot_id text references bots(id) on delete cascade,
  -- The visitor who may read it: its uploader, or the visitor of the conversation an operator sent it to.
  -- Null for an operator's upload not yet sent: only the account reads it.
  user_id text,
  -- Set when a message takes it; an upload no message took within a day is deleted.
  conversation_id text references conversations(id) on delete cascade,
  message_id text references messages(id) on delete cascade,
  filename text not null,
  -- Judged by its bytes (attachments/content-type.ts), never by its name or the uploader's word.
  content_type text not null,
  size integer not null,
  width integer,
  height integer,
  data bytea not null,
  created_at timestamptz not null default now()
);
create index attachments_message on attachments (message_id) where message_id is not null;
create index attachments_unlinked on attachments (account_id, created_at) where message_id is null;
