-- The dashboard: people who sign in to an account, their server-side sessions, one-time
-- invite links; and API keys that have a scope, an optional expiry and a last-use time.
create table users (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  -- Stored trimmed and lower-cased: one person, one row, whatever case they type.
  email text not null unique,
  -- PHC-style scrypt string: `$scrypt$ln=…,r=…,p=…$salt$hash` (users/password.ts).
  password_hash text not null,
  role text not null check (role in ('owner', 'member')),
  created_at timestamptz not null default now(),
  password_changed_at timestamptz not null default now()
);
create index users_account on users (account_id, created_at, id);

create table sessions (
  -- sha256 of the cookie's secret: a copy of this table does not let anyone sign in.
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  -- Sent back by the dashboard in X-CSRF-Token on every write (synchronizer token).
  csrf_token text not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_user on sessions (user_id);
create index sessions_expires on sessions (expires_at);

create table invites (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  -- sha256 of the link's token; the token itself is shown once, to the owner who created it.
  token_hash text not null unique,
  role text not null check (role in ('owner', 'member')),
  created_by text references users(id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  used_by text references users(id) on delete set null
);
create index invites_account on invites (account_id, created_at, id);

alter table api_keys add column scope text not null default 'full' check (scope in ('full', 'read_only'));
alter table api_keys add column expires_at timestamptz;
alter table api_keys add column last_used_at timestamptz;
alter table api_keys add column created_by text references users(id) on delete set null;
-- Keys the service issues for itself (label `demo-proxy`): only those are re-issued by label, so a
-- user's key that happens to carry the same label is never revoked by a restart.
alter table api_keys add column managed boolean not null default false;
update api_keys set managed = true where label is not null;
create index api_keys_account on api_keys (account_id, created_at, id);
