-- Upload quotas: unsent uploads are counted in bytes per visitor, per client address and per bot,
-- and every file of an account against its storage quota (attachments/quotas.ts).

-- The address the upload came from (http/client-ip.ts); null when the host gave none.
alter table attachments add column client_ip text;

-- The account's bytes, summed at every upload: read from the index alone.
create index attachments_account_size on attachments (account_id) include (size);
