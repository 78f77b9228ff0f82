-- Keys the service issues for itself (the demo proxy's) are labelled, so a restart can revoke the
-- previous one instead of accumulating live keys.
alter table api_keys add column label text;
