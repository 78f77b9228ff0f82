-- Explicit operator presence. Until now a row meant "an inbox stream is open"; now it also keeps
-- what the operator chose (online / away / offline), which outlives their streams, and when they
-- last did anything in the dashboard (online shows as away after a while without activity).
alter table operator_presence add column status text not null default 'online'
  check (status in ('online', 'away', 'offline'));
alter table operator_presence add column active_at timestamptz not null default now();
-- Null: none of their dashboards is connected (they show as offline, whatever they chose).
alter table operator_presence alter column seen_at drop not null;
alter table operator_presence alter column seen_at drop default;
