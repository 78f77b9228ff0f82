-- Stop and the bot's avatar. A reply the user stopped while it streamed is stored with the text that was
-- sent before the stop, marked `stopped`, so history shows it as the user saw it.
alter table messages add column stopped boolean not null default false;
-- A bot's avatar for the widget's header and its answers (http(s) or a data:image URL); null: none.
alter table bots add column avatar_url text;
