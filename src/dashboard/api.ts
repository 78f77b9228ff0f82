/**
 * The dashboard's only way to the service (docs/dashboard-api.md):
 *
 * - `client`: the project's typed client over the session passthrough `/dashboard/api/v1`, so pages
 *   run the same /v1 calls as any integration without an API key in the browser. The session
 *   cookie authenticates it; writes carry the session's CSRF token, kept in memory only.
 * - small typed functions for the session endpoints of `/dashboard/api` (sign-in, keys, team, plan),
 *   sent through the client's own HTTP core, so they fail with the same `ApiError`s.
 *
 * A 401 `authentication_required` means the session is gone (signed out elsewhere, expired, removed
 * by an owner): the API then fires `session-ended`, and the shell shows the sign-in view. (A wrong
 * current password is a 401 too, `invalid_credentials`, and ends nothing.)
 */
import { AiChatClient, isApiError } from '../client/index.js';
import { HttpCore, type RequestSpec } from '../client/http.js';
import { AttachmentsResource } from '../client/resources/attachments.js';
import { followEvents, type HandoffEventsOptions } from '../client/resources/handoff.js';
import type { Attachment, HandoffEvent, HandoffState, InboxConversation, InboxVisitor, Message, OfflineMessage, OfflineReplyRequest, OperatorProfile } from '../client/types.js';
import type { ApiKey, InboxCounts, Invite, KeyScope, OperatorPresence, Plan, PresenceStatus, Role, Session, SignupInfo, Teammate, User } from './types.js';

export type * from './types.js';

export const DASHBOARD_API = '/dashboard/api';
export const CSRF_HEADER = 'X-CSRF-Token';

export interface SignUpRequest {
  email: string;
  password: string;
  invite?: string;
  account_name?: string;
}

export interface CreateKeyRequest {
  label: string;
  scope?: KeyScope;
  /** ISO 8601 with a time zone; null: never expires. */
  expires_at?: string | null;
}

/** Whether a 401 says "no session" (not, say, a wrong current password). */
async function sessionGone(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: string } };
    return body.error?.code === 'authentication_required';
  } catch {
    return true;
  }
}

interface Items<T> {
  items: T[];
}

/** A file of an operator's reply may take a while on a slow line (the client's default is 30 s a request). */
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

export interface UploadProgressOptions {
  /** Bytes sent so far of `total`, as the upload goes. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

export class DashboardApi extends EventTarget {
  /** The typed /v1 client, authenticated by the session (pages use this). */
  readonly client: AiChatClient;
  /** Sent with every request (the client, the session core, uploads); the CSRF token is set on it after sign-in. */
  private readonly headers: Record<string, string> = {};
  private readonly core: HttpCore;
  /**
   * The client's attachments resource over a core without a `fetch` of its own: only then does an
   * upload go over XMLHttpRequest and report its progress (a caller's `fetch` cannot). It sends the
   * same headers, so the CSRF token; its 401s end the session in `upload`.
   */
  private readonly files: AttachmentsResource;

  /** `fetchImpl`: every request goes through it (uploads then report no progress, only their end). */
  constructor(base = DASHBOARD_API, fetchImpl?: typeof fetch) {
    super();
    const own: typeof fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    const watched: typeof fetch = async (input, init) => {
      const response = await own(input, init);
      if (response.status === 401 && this.csrfToken && (await sessionGone(response))) this.ended();
      return response;
    };
    // All read `headers` at every request (the same object), so a new token applies at once.
    this.client = new AiChatClient({ baseUrl: `${base}/v1`, headers: this.headers, fetch: watched });
    this.core = new HttpCore({ baseUrl: base, headers: this.headers, fetch: watched });
    this.files = new AttachmentsResource(new HttpCore({ baseUrl: `${base}/v1`, headers: this.headers, ...(fetchImpl ? { fetch: watched } : {}) }));
  }

  get csrfToken(): string {
    return this.headers[CSRF_HEADER] ?? '';
  }

  private remember(session: Session): Session {
    this.headers[CSRF_HEADER] = session.csrf_token;
    return session;
  }

  private ended(): void {
    delete this.headers[CSRF_HEADER];
    this.dispatchEvent(new Event('session-ended'));
  }

  private async call<T>(method: RequestSpec['method'], path: string, body?: unknown): Promise<T> {
    return (await this.core.request<T>({ method, path, body })).data;
  }

  // Accounts and sign-in

  signupInfo(): Promise<SignupInfo> {
    return this.call('GET', '/signup');
  }

  async signUp(request: SignUpRequest): Promise<Session> {
    return this.remember(await this.call<Session>('POST', '/signup', request));
  }

  async signIn(email: string, password: string): Promise<Session> {
    return this.remember(await this.call<Session>('POST', '/signin', { email, password }));
  }

  async signOut(): Promise<void> {
    try {
      await this.call('POST', '/signout');
    } finally {
      this.ended();
    }
  }

  /** The current session, or null when signed out (a 401 is the normal "signed out" answer here). */
  async me(): Promise<Session | null> {
    try {
      return this.remember(await this.call<Session>('GET', '/me'));
    } catch (error) {
      if ((error as { status?: number }).status === 401) return null;
      throw error;
    }
  }

  async changePassword(currentPassword: string, newPassword: string): Promise<Session> {
    return this.remember(await this.call<Session>('PUT', '/me/password', { current_password: currentPassword, new_password: newPassword }));
  }

  // Teammates and invites

  /** The team, each with their presence. */
  async teammates(): Promise<Teammate[]> {
    return (await this.call<Items<Teammate>>('GET', '/teammates')).items;
  }

  setRole(userId: string, role: Role): Promise<User> {
    return this.call('PATCH', `/teammates/${encodeURIComponent(userId)}`, { role });
  }

  removeTeammate(userId: string): Promise<{ id: string; deleted: true }> {
    return this.call('DELETE', `/teammates/${encodeURIComponent(userId)}`);
  }

  async invites(): Promise<Invite[]> {
    return (await this.call<Items<Invite>>('GET', '/invites')).items;
  }

  createInvite(request: { role?: Role; expires_in_hours?: number } = {}): Promise<{ invite: Invite; token: string; url: string }> {
    return this.call('POST', '/invites', request);
  }

  revokeInvite(inviteId: string): Promise<{ id: string; deleted: true }> {
    return this.call('DELETE', `/invites/${encodeURIComponent(inviteId)}`);
  }

  // API keys and the plan

  async keys(): Promise<ApiKey[]> {
    return (await this.call<Items<ApiKey>>('GET', '/keys')).items;
  }

  /** The secret is in this answer only: show it once, never store it. */
  createKey(request: CreateKeyRequest): Promise<{ key: ApiKey; secret: string }> {
    return this.call('POST', '/keys', request);
  }

  revokeKey(keyId: string): Promise<{ id: string; revoked_at: string; revoked: true }> {
    return this.call('DELETE', `/keys/${encodeURIComponent(keyId)}`);
  }

  plan(): Promise<Plan> {
    return this.call('GET', '/plan');
  }

  // The operator inbox (human handoff, docs/handoff.md)

  /** `q`: text in a message or note (case-insensitive); `label`: one of its labels. */
  async inbox(filter: { q?: string; label?: string } = {}): Promise<InboxConversation[]> {
    return (await this.core.request<Items<InboxConversation>>({ method: 'GET', path: '/inbox', query: { ...filter } })).data.items;
  }

  /** The team's private notes on a conversation, oldest first (`role: 'note'`). */
  async notes(conversationId: string): Promise<Message[]> {
    return (await this.call<Items<Message>>('GET', `/inbox/${encodeURIComponent(conversationId)}/notes`)).items;
  }

  /** Who the conversation's visitor is (what the widget told) and their other conversations, newest first. */
  inboxVisitor(conversationId: string): Promise<InboxVisitor> {
    return this.call('GET', `/inbox/${encodeURIComponent(conversationId)}/visitor`);
  }

  /** A private note: only the team sees it (never the visitor). */
  addNote(conversationId: string, content: string): Promise<Message> {
    return this.call('POST', `/inbox/${encodeURIComponent(conversationId)}/notes`, { content });
  }

  async offlineMessages(): Promise<OfflineMessage[]> {
    return (await this.call<Items<OfflineMessage>>('GET', '/inbox/offline-messages')).items;
  }

  /** Emails the visitor the answer (From the service's sender, Reply-To you) and marks the message answered by you. */
  answerOfflineMessage(id: string, email: OfflineReplyRequest): Promise<OfflineMessage> {
    return this.call('POST', `/inbox/offline-messages/${encodeURIComponent(id)}/reply`, email);
  }

  take(conversationId: string): Promise<HandoffState> {
    return this.call('POST', `/inbox/${encodeURIComponent(conversationId)}/take`);
  }

  /** `content` may be empty when `attachments` (ids from `upload`) sends files. */
  reply(conversationId: string, content: string, attachments: readonly string[] = []): Promise<Message> {
    return this.call('POST', `/inbox/${encodeURIComponent(conversationId)}/messages`, attachments.length ? { content, attachments } : { content });
  }

  /**
   * Uploads a file for a reply in `conversationId` (`POST /v1/attachments?conversation_id=`), its
   * progress reported as it goes; send its id with `reply`. 413 and 415 come as `ApiError`s.
   */
  async upload(conversationId: string, file: File, options: UploadProgressOptions = {}): Promise<Attachment> {
    try {
      const query = { conversation_id: conversationId, filename: file.name };
      return (await this.files.upload(file, query, { ...options, timeoutMs: UPLOAD_TIMEOUT_MS })).data;
    } catch (error) {
      if (isApiError(error) && error.code === 'authentication_required' && this.csrfToken) this.ended();
      throw error;
    }
  }

  /** Removes an upload not sent yet (`DELETE /v1/attachments/{id}`). */
  async removeUpload(id: string): Promise<void> {
    await this.client.attachments.delete(id);
  }

  typing(conversationId: string): Promise<unknown> {
    return this.call('POST', `/inbox/${encodeURIComponent(conversationId)}/typing`);
  }

  closeConversation(conversationId: string, to: 'bot' | 'closed'): Promise<HandoffState> {
    return this.call('POST', `/inbox/${encodeURIComponent(conversationId)}/close`, { to });
  }

  /** Conversations waiting for anyone, and those this user holds. */
  inboxCounts(): Promise<InboxCounts> {
    return this.call('GET', '/inbox/counts');
  }

  presence(): Promise<OperatorPresence> {
    return this.call('GET', '/me/presence');
  }

  setPresence(status: PresenceStatus): Promise<OperatorPresence> {
    return this.call('PUT', '/me/presence', { status });
  }

  /** This user is at work in the dashboard: `online` does not decay to `away` for a while. */
  presenceActivity(): Promise<OperatorPresence> {
    return this.call('POST', '/me/presence/activity');
  }

  operatorProfile(): Promise<OperatorProfile> {
    return this.call('GET', '/inbox/me');
  }

  /** How visitors see this operator; null clears (the name falls back to the email's local part). */
  setOperatorProfile(input: { display_name?: string | null; avatar_url?: string | null }): Promise<OperatorProfile> {
    return this.call('PUT', '/inbox/me', input);
  }

  /** The inbox's live events; while one is followed, this user's dashboard counts as open (presence). */
  inboxEvents(options: Pick<HandoffEventsOptions, 'signal' | 'lastEventId' | 'onReady'> = {}): AsyncGenerator<HandoffEvent, void, undefined> {
    return followEvents(this.core, '/inbox/events', {}, options);
  }
}

/** The one instance the dashboard uses. */
export const api = new DashboardApi();
/** The typed /v1 client of the signed-in session. */
export const client = api.client;
