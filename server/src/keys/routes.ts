/** `/dashboard/api/keys`: everyone on the team sees the keys (never a secret); owners create and revoke them. */
import { Hono } from 'hono';
import type { AppContext } from '../http/context.ts';
import { ok } from '../http/envelope.ts';
import { pathId, readJson } from '../http/validate.ts';
import { ownersOnly, requireSession, type DashboardEnv } from '../sessions/middleware.ts';
import type { Deps } from '../services.ts';
import { createKeySchema, type CreateKeyInput } from './schema.ts';

export function keyRoutes(deps: Deps): Hono<DashboardEnv> {
  const router = new Hono<DashboardEnv>();
  const { apiKeys, sessions } = deps.dashboard;
  const app = (c: unknown) => c as AppContext;
  const manage = ownersOnly('create or revoke API keys');

  router.use('*', requireSession(sessions));

  router.get('/', async (c) => ok(app(c), { items: await apiKeys.list(c.get('session').accountId) }));

  router.post('/', manage, async (c) => {
    const input = await readJson<CreateKeyInput>(app(c), createKeySchema);
    const session = c.get('session');
    c.header('Cache-Control', 'no-store'); // the secret is in this body, once
    return ok(app(c), await apiKeys.create(session.accountId, session.userId, input), 201);
  });

  router.delete('/:key_id', manage, async (c) => {
    const keyId = pathId(app(c), 'key_id', 'key', 'API key');
    return ok(app(c), { ...(await apiKeys.revoke(c.get('session').accountId, keyId)), revoked: true });
  });

  return router;
}
