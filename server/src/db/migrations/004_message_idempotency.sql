-- A chat turn written under an Idempotency-Key carries that key (and the request's fingerprint) on
-- its stored user message. The unique index makes the write itself idempotent: a retry after a
-- crash between "messages committed" and "key marked done" finds the stored turn instead of
-- writing it again, and two racing requests with one key cannot both store a message.
-- `entities` keeps what a bot reply extracted, so a replay can answer exactly as the first time.
alter table messages add column idempotency_key text;
alter table messages add column idempotency_request_hash text;
alter table messages add column entities jsonb;
create unique index messages_account_idempotency on messages (account_id, idempotency_key) where idempotency_key is not null;
