-- How the chat widget looks for a bot (bots/schema.ts `appearance`): its colour, corner, launcher
-- icon, display name and welcome. Null: the widget's defaults.
alter table bots add column if not exists appearance jsonb;
