-- Knowledge changes: one row per knowledge write, numbered by the account's kb_revision at that write.
--
-- A process holding an account's search index at revision R brings it up to date by reading the
-- changes after R (and each changed entry's current row) instead of rebuilding the whole index. A
-- revision with no row (a write that bumped kb_revision without logging, or a row pruned away)
-- makes that process rebuild instead, so the index can never be stale. The primary key is the
-- lookup path; writes prune rows more than 10,000 revisions old.
create table knowledge_changes (
  account_id text not null references accounts(id) on delete cascade,
  revision bigint not null,
  entry_id text not null,
  primary key (account_id, revision)
);
