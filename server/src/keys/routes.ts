/** `/dashboard/api/keys`: everyone on the team sees the keys (never a secret); owners create and revoke them. */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson } from '../http/validate.ts';
import { ownersOnly, requireSession, signedIn } from '../sessions/middleware.ts';
import type { DashboardServices } from '../dashboard/services.ts';
import { createKeySchema, type CreateKeyInput } from './schema.ts';

/** What these routes use of the service graph (services.ts builds it). */
export interface KeyRouteDeps {
  dashboard: DashboardServices;
}

export function keyRoutes(deps: KeyRouteDeps): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const { apiKeys, sessions } = deps.dashboard;
  const manage = ownersOnly('create or revoke API keys');

  router.use('*', requireSession(sessions));

  router.get('/', async (c) => ok(c, { items: await apiKeys.list(signedIn(c).accountId) }));

  router.post('/', manage, async (c) => {
    const input = await readJson<CreateKeyInput>(c, createKeySchema);
    const session = signedIn(c);
    c.header('Cache-Control', 'no-store'); // the secret is in this body, once
    return ok(c, await apiKeys.create(session.accountId, session.userId, input), 201);
  });

  router.delete('/:key_id', manage, async (c) => {
    const keyId = pathId(c, 'key_id', 'key', 'API key');
    return ok(c, { ...(await apiKeys.revoke(signedIn(c).accountId, keyId)), revoked: true });
  });

  return router;
}
