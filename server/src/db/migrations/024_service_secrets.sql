-- Secrets the service generates for itself on first start (the widget token signing key), kept
-- here so every instance on the same database signs and verifies with the same one.
create table if not exists service_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
