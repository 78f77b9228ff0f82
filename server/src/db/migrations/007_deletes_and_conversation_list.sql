-- Deletes and the conversation list.
--
-- A conversation belongs to the bot or agent it was started with: deleting that bot or agent deletes
-- it (and its messages, through messages.conversation_id). The services delete them explicitly to
-- count what went; these keys are the guarantee for a message that races the delete, which then
-- fails instead of leaving a conversation behind for an id that no longer exists. NOT VALID: rows
-- written before this migration are not re-checked (an old orphan must not stop the service
-- from starting); every new row is.
alter table conversations
  add constraint conversations_bot_fk foreign key (bot_id) references bots(id) on delete cascade not valid;
alter table conversations
  add constraint conversations_agent_fk foreign key (agent_id) references agents(id) on delete cascade not valid;

-- GET /v1/conversations: newest first, keyset-paginated on (created_at, id), one index per filter
-- so that a page is an index range scan and never a sort of the account's conversations. Bot and
-- agent ids are unique across accounts, so those indexes lead with them (they also serve the
-- cascades above).
create index conversations_account_created on conversations (account_id, created_at, id);
create index conversations_bot_created on conversations (bot_id, created_at, id) where bot_id is not null;
create index conversations_agent_created on conversations (agent_id, created_at, id) where agent_id is not null;
create index conversations_account_user_created on conversations (account_id, user_id, created_at, id);

-- The text filter: the words of each message in the 'simple' configuration (lower-cased, no
-- stemming, no stopwords: it behaves the same for every language), stored without positions and
-- GIN-indexed. Stored, not an expression index: a list page walking recent conversations checks
-- their messages one by one, and recomputing to_tsvector there costs several times more than
-- reading the stored value. (pg_trgm would be the other choice; PGlite does not ship it.)
alter table messages add column content_words tsvector generated always as (strip(to_tsvector('simple', content))) stored;
create index messages_content_words on messages using gin (content_words);

-- Deletions, counted for the usage report: what was deleted and how much went with it. No ids and
-- no content: the point of a delete is that the data is gone.
create table deletions (
  id bigint generated always as identity primary key,
  account_id text not null references accounts(id) on delete cascade,
  -- 'bot' | 'agent' | 'knowledge_entry' | 'conversation'
  resource text not null,
  conversations integer not null default 0,
  messages integer not null default 0,
  created_at timestamptz not null default now()
);
create index deletions_account_created on deletions (account_id, created_at);
