-- An offline message answered by email from the inbox: who answered it and when. Setting them is
-- the claim (`where answered_at is null`), so of two teammates answering at once exactly one sends.
alter table offline_messages add column answered_by text references users(id) on delete set null;
alter table offline_messages add column answered_at timestamptz;
