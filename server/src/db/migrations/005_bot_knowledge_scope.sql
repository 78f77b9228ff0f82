-- A bot's knowledge scope: which knowledge entries may ground its answers (`{"tags": [...]}`, the
-- agents' shape; `{"tags": []}` opens every entry). Null, the default, means none: a bot answers
-- anonymous widget visitors, so an entry reaches them only when its owner scoped the bot to it.
-- Existing bots start with none, as new ones do.
alter table bots add column knowledge jsonb;
-- The demo bot seeded by an earlier start keeps answering from the demo entries (all tagged `docs`).
-- It is recognised by its seeded name and description; no other bot is widened.
update bots set knowledge = '{"tags": ["docs"]}'::jsonb
  where knowledge is null
    and name = 'Widget guide'
    and description = 'Answers questions about ai-chat-widget: installing, theming, security and limits.';
