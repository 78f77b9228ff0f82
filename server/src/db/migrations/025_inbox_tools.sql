-- Inbox tools: canned replies a team shares, labels on conversations, and private notes.

-- Canned replies (canned-replies/): text an operator inserts by typing `/shortcut` in the inbox.
create table canned_replies (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  shortcut text not null,
  text text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, shortcut)
);

-- Free-text labels a team puts on a conversation (`?label=` filters by one).
alter table conversations add column labels text[] not null default '{}';
create index conversations_labels on conversations using gin (labels);

-- Private notes are messages with role `note`: only the team sees them, so they are no
-- `message.created` event (an event a visitor-facing integration would forward). As in 022 otherwise.
create or replace function webhooks_messages_inserted() returns trigger language plpgsql as $$
begin
  if webhooks_any() then
    perform webhook_enqueue(m.account_id, 'message.created',
      jsonb_build_object('message', to_jsonb(m), 'bot_id', c.bot_id, 'agent_id', c.agent_id, 'user_id', c.user_id))
    from new_rows m join conversations c on c.id = m.conversation_id
    where m.role <> 'note'
    order by m.seq;
  end if;
  return null;
end $$;
