-- Private notes (role `note`, migration 025) are the team's, not traffic: no usage count includes
-- them. The three functions that count messages into `usage_rollups` (as 023 defines them: the
-- insert trigger, the hour rebuild a delete runs, and the backfill) change in one clause each, the
-- test-conversation filter, which gains `role <> 'note'`; the raw reads of analytics/reports.ts
-- filter the same way. Replies are assistant messages only, so their rollups never saw a note.
do $$
declare
  target record;
  definition text;
begin
  for target in
    select * from (values
      ('analytics_messages_inserted()', 'from new_rows m
  where not exists'),
      ('analytics_rebuild(text,text,timestamptz)', 'and m.created_at < at + interval ''1 hour''
      and not exists'),
      ('analytics_backfill(text)', 'where m.account_id = account and not exists')
    ) f(name, clause)
  loop
    definition := pg_get_functiondef(target.name::regprocedure);
    if position(target.clause in definition) = 0 then
      raise exception 'migration 033: % no longer reads as 023 wrote it', target.name;
    end if;
    execute replace(definition, target.clause, replace(target.clause, 'not exists', 'm.role <> ''note'' and not exists'));
  end loop;
end $$;

-- The hours already rolled up counted their notes: each hour that has one is rebuilt once.
select analytics_rebuild(n.account_id, 'hour', n.hour)
from (select distinct account_id, analytics_hour(created_at) as hour from messages where role = 'note') n;
