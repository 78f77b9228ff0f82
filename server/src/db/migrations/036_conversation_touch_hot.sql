-- Every bot turn touches its conversation's updated_at. With updated_at in an index the touch could
-- never be a HOT update: each one wrote a new entry into every index of the table (eight, a GIN among
-- them) and left the old ones dead. A visitor who keeps chatting piles dead entries under one key of
-- conversations_user, which the next turn's lookup reads through; PGlite, which has no autovacuum,
-- never cleans them. Without updated_at the touch changes no indexed column: the new version goes on
-- the same page (room kept by the fill factor) and the page prunes the old ones itself. The lookup
-- still finds a user's conversations with a bot by the key and sorts those few by updated_at.
drop index conversations_user;
create index conversations_user on conversations (account_id, user_id, bot_id);
alter table conversations set (fillfactor = 85);
