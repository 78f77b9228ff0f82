-- Training jobs: at most one active (queued/running) job per agent, enforced by the database so two
-- processes cannot both start one; and a heartbeat so a restart can tell a crashed run from a live one.
alter table training_jobs add column heartbeat_at timestamptz;
create unique index training_jobs_one_active on training_jobs (agent_id) where status in ('queued', 'running');
-- The job whose model an agent serves (a stable cache key for the loaded model), and the exact
-- training data (intents with responses) that model was trained on: later edits to the agent's
-- examples must not change which response an already-trained intent answers with.
alter table agents add column model_job_id text;
alter table agents add column model_training jsonb;
