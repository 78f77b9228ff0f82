-- Slack joins the platforms a channel may be on (channels/slack/). The check of migration 020 is
-- replaced by name; PostgreSQL and PGlite both named it `channels_type_check`.
alter table channels drop constraint channels_type_check;
alter table channels add constraint channels_type_check check (type in ('telegram', 'whatsapp', 'slack'));
