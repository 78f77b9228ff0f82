-- The training's fallback settings in a column of their own, kept by PostgreSQL in step with the
-- training: every turn reads them, and `training->'fallback'` would decompress the whole training
-- (every example, hundreds of KB) each time (bots/service.ts, agents/service.ts).
alter table bots add column training_fallback jsonb generated always as (training->'fallback') stored;
alter table agents add column training_fallback jsonb generated always as (training->'fallback') stored;
