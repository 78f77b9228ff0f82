-- Assignment of waiting conversations to operators. Off by default: an account turns automatic
-- assignment on here. While on, a conversation that starts waiting goes to the online operator with
-- the fewest open conversations under their capacity. The row is also the account's assignment lock:
-- every instance takes it (`for update`) before choosing, so two choices never overlap.
create table assignment_settings (
  account_id text primary key references accounts(id) on delete cascade,
  auto boolean not null default false,
  updated_at timestamptz not null default now()
);

-- How many open (`with_person`) conversations automatic assignment gives an operator at most, and
-- when they were last given one (ties go to who waited longest since).
alter table users add column assign_capacity integer not null default 5 check (assign_capacity between 0 and 100);
alter table users add column last_assigned_at timestamptz;
