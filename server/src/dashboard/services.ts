/** The dashboard's services, built once per process beside the resource services (index.ts). */
import type { CoreDeps } from '../services.ts';
import { ApiKeyService } from '../keys/service.ts';
import { SessionService } from '../sessions/service.ts';
import { InviteService } from '../users/invites.ts';
import { UserService } from '../users/service.ts';
import { resolveDashboardOptions, type ResolvedDashboardOptions } from './options.ts';

export interface DashboardServices {
  options: ResolvedDashboardOptions;
  /** The account the first sign-up owns (the development account). */
  installAccountId: string;
  users: UserService;
  invites: InviteService;
  sessions: SessionService;
  apiKeys: ApiKeyService;
}

export function createDashboardServices(core: CoreDeps, installAccountId: string): DashboardServices {
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
