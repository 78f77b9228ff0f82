-- Knowledge imports: documents and web pages turned into knowledge entries, one
-- entry per heading section, re-synced on demand.
--
-- An import is the source (uploaded files, one page and the same-host pages it links to, or a
-- sitemap); each run over it is a job like agent training: queued → running → succeeded | failed,
-- at most one active per import (the partial unique index: two processes cannot both start one),
-- a heartbeat so a restart can tell a crashed run from a live one.
create table knowledge_imports (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  kind text not null,
  name text not null,
  url text,
  max_pages integer not null,
  tags jsonb not null default '[]',
  language text not null,
  latest_job_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index knowledge_imports_account_created on knowledge_imports (account_id, created_at, id);

create table knowledge_import_jobs (
  id text primary key,
  account_id text not null references accounts(id) on delete cascade,
  import_id text not null references knowledge_imports(id) on delete cascade,
  status text not null,
  progress jsonb not null default '{}',
  issues jsonb not null default '[]',
  error jsonb,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  heartbeat_at timestamptz
);
create unique index knowledge_import_jobs_one_active on knowledge_import_jobs (import_id) where status in ('queued', 'running');
create index knowledge_import_jobs_import on knowledge_import_jobs (import_id, created_at);

-- Where an imported entry came from, for citations (the page URL and the headings above its text)
-- and for re-sync: its document within the import, its section key there and the hash of what was
-- imported (an unchanged section is left untouched).
alter table knowledge_entries add column url text;
alter table knowledge_entries add column heading_path jsonb not null default '[]';
alter table knowledge_entries add column import_id text references knowledge_imports(id) on delete set null;
alter table knowledge_entries add column import_document text;
alter table knowledge_entries add column import_key text;
alter table knowledge_entries add column content_hash text;
create index knowledge_entries_import on knowledge_entries (import_id, import_document) where import_id is not null;
