/**
 * The JSON shapes of the session surface `/dashboard/api` (docs/dashboard-api.md). The service
 * builds its answers with these types and the dashboard reads them, so the two cannot drift apart
 * (as with `src/client/types.ts` for /v1).
 */

export type Role = 'owner' | 'member';
export type KeyScope = 'full' | 'read_only';
/** Who may sign up after the first person: see `AI_CHAT_SIGNUP`. */
export type SignupPolicy = 'open' | 'invite' | 'closed';

export interface User {
  id: string;
  email: string;
  role: Role;
  created_at: string;
}

/** An operator's presence: `online` takes visitors, `away` and `offline` do not. */
export type PresenceStatus = 'online' | 'away' | 'offline';

/** `/dashboard/api/me/presence`: what the signed-in user chose and what others see now. */
export interface OperatorPresence {
  /** What teammates and the handoff see: `chosen`, unless it decayed (idle: `away`; no dashboard open: `offline`). */
  status: PresenceStatus;
  /** What the operator set (default `online`). */
  chosen: PresenceStatus;
  /** The last dashboard activity; null before any. */
  active_at: string | null;
  /** `online` shows as `away` after this long without activity. */
  away_after_seconds: number;
}

/** A member of the team as `/dashboard/api/teammates` lists them. */
export interface Teammate extends User {
  presence: PresenceStatus;
}

/** `/dashboard/api/inbox/counts`: what needs a person, for the shell's badge and tab title. */
export interface InboxCounts {
  /** Conversations waiting for anyone. */
  waiting: number;
  /** Conversations the signed-in operator holds. */
  mine: number;
}

export interface Session {
  user: User;
  account: { id: string; name: string };
  /** Send it as `X-CSRF-Token` on every write; keep it in memory only. */
  csrf_token: string;
  session_expires_at: string;
}

export interface SignupInfo {
  policy: SignupPolicy;
  install_claimed: boolean;
}

export interface ApiKey {
  id: string;
  /** The first characters of the secret, to recognise it. */
  prefix: string;
  label: string | null;
  scope: KeyScope;
  /** `expired` keys are listed until revoked, so nobody wonders where a key went. */
  status: 'active' | 'expired';
  created_at: string;
  expires_at: string | null;
  /** Precise to about a minute; null if never used. */
  last_used_at: string | null;
  /** The user who created it; null for the configured development key and the service's own keys. */
  created_by: string | null;
  /** Issued by the service for itself (the demo proxy's key), re-issued on every start. */
  managed: boolean;
}

export interface Invite {
  id: string;
  role: Role;
  created_by: string | null;
  created_at: string;
  expires_at: string;
}

/** The account's plan as the dashboard shows it: its request limit and this window's use. */
export interface Plan {
  rate_limit: {
    limit: number;
    window_seconds: number;
    /** `account`: this account's own plan; `default`: the service's default (`AI_CHAT_RATE_LIMIT`). */
    source: 'account' | 'default';
  };
  /** The fixed window now running, shared by every key of the account and every instance. */
  current_window: {
    /** Requests counted in this window, refused (429) ones included. */
    used: number;
    remaining: number;
    /** When the window ends (UTC epoch seconds), as in `X-RateLimit-Reset`; null when none is running. */
    reset: number | null;
  };
}
