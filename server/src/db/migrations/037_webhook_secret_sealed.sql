-- Webhook signing secrets at rest: sealed like channel credentials when the service has
-- AI_CHAT_SECRETS_KEY (db/secrets.ts), kept as they are without one. Exactly one of the two holds
-- the secret; a start with a key seals every plain one (WebhookService.start).
alter table webhook_subscriptions
  add column secret_sealed jsonb,
  alter column secret drop not null,
  add constraint webhook_subscriptions_one_secret check ((secret is null) <> (secret_sealed is null));
