-- Embeddings of knowledge entries for semantic search (server/src/embeddings/), stored with pgvector.
-- Optional: where the server has no pgvector (its package is not installed, or the role may not
-- create extensions), nothing is created and search stays lexical; the service checks for the
-- table at start and runs this file again then, so installing pgvector later is enough.
do $$
begin
  create extension if not exists vector;
exception when others then
  raise notice 'pgvector is not available (%): semantic search stays off', sqlerrm;
end $$;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'vector') then
    -- One vector per entry and model. `version` is the entry's when embedded: an older one is
    -- stale and re-embedded. Dimensions vary by model, so the column has none of its own and
    -- searches compare only rows of the configured model and its dimensions.
    create table if not exists knowledge_embeddings (
      entry_id text primary key references knowledge_entries(id) on delete cascade,
      account_id text not null references accounts(id) on delete cascade,
      version integer not null,
      model text not null,
      dimensions integer not null,
      embedding vector not null,
      embedded_at timestamptz not null default now()
    );
    create index if not exists knowledge_embeddings_account on knowledge_embeddings (account_id, model, dimensions);
  end if;
end $$;
