/** The dashboard's services, built once per process beside the resource services (index.ts). */
import type { Kysely } from 'kysely';
import type { AccountService } from '../accounts/service.ts';
import type { Database } from '../db/schema.ts';
import { ApiKeyService } from '../keys/service.ts';
import { SessionService } from '../sessions/service.ts';
import { InviteService } from '../users/invites.ts';
import { UserService } from '../users/service.ts';
import { resolveDashboardOptions, type DashboardOptions, type ResolvedDashboardOptions } from './options.ts';

export interface DashboardServices {
  options: ResolvedDashboardOptions;
  /** The account the first sign-up owns (the development account). */
  installAccountId: string;
  users: UserService;
  invites: InviteService;
  sessions: SessionService;
  apiKeys: ApiKeyService;
}

/** What the dashboard's services are built from (the core of services.ts). */
export interface DashboardCore {
  db: Kysely<Database>;
  accounts: Pick<AccountService, 'keys'>;
  config: { dashboard?: DashboardOptions };
}

export function createDashboardServices(core: DashboardCore, installAccountId: string): DashboardServices {
  const options = resolveDashboardOptions(core.config.dashboard);
  const invites = new InviteService(core.db);
  return {
    options,
    installAccountId,
    users: new UserService(core.db, invites, installAccountId, options.signup),
    invites,
    sessions: new SessionService(core.db),
    apiKeys: new ApiKeyService(core.db, core.accounts.keys),
  };
}
