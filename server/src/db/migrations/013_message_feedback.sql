-- Feedback on assistant answers: a thumbs up or down, with an optional reason and
-- comment, one per message and rater. The rater is the conversation's own end user (user_id '' for a
-- conversation without one), so giving it again replaces it, and DELETE takes it back.
--
-- conversation_id, bot_id and agent_id are copied from the message's conversation, and answer_key
-- (md5 of the answer's text) from the message, so the reports read this table alone: per day, per
-- bot and agent, and the answers with the most thumbs down (the same text, e.g. a bot's stock answer,
-- downvoted in many conversations counts as one answer). Feedback goes with its message.
create table message_feedback (
  account_id text not null references accounts(id) on delete cascade,
  message_id text not null references messages(id) on delete cascade,
  user_id text not null,
  conversation_id text not null,
  bot_id text,
  agent_id text,
  answer_key text not null,
  rating text not null check (rating in ('up', 'down')),
  reason text,
  comment text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (message_id, user_id)
);

-- Every report reads one account's feedback of a time range (when it was last given); the included
-- columns answer its counts and its grouping by answer from the index alone.
create index message_feedback_account_updated on message_feedback (account_id, updated_at)
  include (rating, reason, bot_id, agent_id, answer_key);

-- The latest thumbs down of one answer (the report's link to its conversation): one probe per answer.
create index message_feedback_latest_down on message_feedback (account_id, answer_key, updated_at) where rating = 'down';
