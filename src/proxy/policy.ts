/**
 * What a widget token may do upstream: the allowlist of routes and the rewriting of each request so
 * that it can only act as the token's user, with the token's bot. Everything else is 403
 * `permission_denied` (bot management, agents, knowledge, analytics: key holders only). The one
 * read of a bot allowed, its own, answers only its public profile (`botProfile`).
 */
import { ProxyError } from './errors.js';
import { ALL_SCOPES, type ProxyScope } from './options.js';
import type { TokenGrant } from './tokens.js';

/** A request the proxy agreed to forward: where to, with which query and (JSON) body. */
export interface ForwardPlan {
  /** Upstream path, `/v1/…`, rebuilt from known parts (never the browser's raw path). */
  path: string;
  query: URLSearchParams;
  /** True when the route takes a JSON body (it is read, rewritten and re-serialised); `'file'`: an upload, passed on as bytes. */
  hasBody: boolean | 'file';
  rewriteBody(body: Record<string, unknown>): Record<string, unknown>;
  /** Narrows a successful answer's `data` before it goes back to the browser (see `botProfile`). */
  projectData?: (data: Record<string, unknown>) => Record<string, unknown>;
}

/** Query parameters history accepts; anything else would only be refused upstream. */
const HISTORY_PARAMS = ['conversation_id', 'bot_id', 'limit', 'cursor'] as const;

function deny(message: string, param?: string): ProxyError {
  return new ProxyError('permission_denied', message, param === undefined ? {} : { param });
}

function requireScope(grant: TokenGrant, scope: ProxyScope): void {
  if (!grant.scopes.includes(scope)) throw deny(`This token does not carry the "${scope}" scope.`);
}

/** Refuses a `bot_id` other than the token's (a token without a bot may not name one). */
function checkBot(grant: TokenGrant, botId: unknown, param: string): void {
  if (botId === undefined || botId === null) return;
  if (botId !== grant.botId) throw deny('This token is not valid for that bot.', param);
}

/** The token's bot, when `segment` (a raw path segment) names it; refuses any other. */
function ownBot(grant: TokenGrant, segment: string): string {
  let botId: string;
  try {
    botId = decodeURIComponent(segment);
  } catch {
    throw deny('This token is not valid for that bot.', 'bot_id');
  }
  if (!grant.botId || botId !== grant.botId) throw deny('This token is not valid for that bot.', 'bot_id');
  return grant.botId;
}

/**
 * Makes a chat or feedback request act as the token's user, with the token's bot: `user_id` is
 * overwritten; another bot, or an agent the token was not given, is refused; a bot-bound token
 * names its bot unless it names its agent.
 */
function asTokenUser(grant: TokenGrant, request: Record<string, unknown>): Record<string, unknown> {
  checkBot(grant, request.bot_id, 'bot_id');
  if (request.agent_id !== undefined && request.agent_id !== grant.agentId) {
    throw deny('This token is not valid for that agent.', 'agent_id');
  }
  const rewritten: Record<string, unknown> = { ...request, user_id: grant.userId };
  if (grant.botId && rewritten.agent_id === undefined) rewritten.bot_id = grant.botId;
  return rewritten;
}

/**
 * A turn's `visitor` as the token's user may tell it: the page, locale and traits pass (the service
 * checks them), but it never says `verified` itself. A token whose `authorize()` gave a name or an
 * email carries them: they replace the browser's, marked `verified`.
 */
function withVerifiedVisitor(grant: TokenGrant, request: Record<string, unknown>): Record<string, unknown> {
  const sent = request.visitor;
  const told = typeof sent === 'object' && sent !== null && !Array.isArray(sent);
  if (!told && !(grant.name || grant.email)) return request; // nothing, or a shape the service refuses
  const { verified: _dropped, name, email, ...rest } = (told ? sent : {}) as Record<string, unknown>;
  const traits = grant.name || grant.email ? { name: grant.name, email: grant.email, verified: true } : { name, email };
  return { ...request, visitor: { ...rest, ...traits } };
}

/** A message id as a path segment: only the id shape passes (nothing to decode, nothing to smuggle). */
const MESSAGE_ID = /^msg_[0-9A-Za-z]{8,40}$/;
/** The same for a conversation id (the handoff routes). */
const CONVERSATION_ID = /^conv_[0-9A-Za-z]{8,40}$/;
/**
 * Routes of one conversation: its handoff state + asking for a person, offline messages, its events
 * stream, and its satisfaction rating (whether to ask, and giving it).
 */
const HANDOFF_ROUTE = /^\/v1\/conversations\/([^/]+)\/(handoff|handoff\/offline-messages|handoff\/typing|events|csat)$/;

/** An attachment id as a path segment. */
const ATTACHMENT_ID = /^att_[0-9A-Za-z]{8,40}$/;
/** The file name of an upload, passed on as given (the service cleans it); only its length is bounded here. */
const MAX_FILENAME = 1000;

/** The visitor's scope of a handoff call: the token's user and, for a bot-bound token, its bot. */
function handoffScope(grant: TokenGrant): Record<string, string> {
  return grant.botId ? { user_id: grant.userId, bot_id: grant.botId } : { user_id: grant.userId };
}

/**
 * The query of the events stream: resume point passed on, `max_seconds` capped at the token's
 * remaining lifetime, so a stream never outlives its token (the client reconnects with a renewed one).
 */
function eventsQuery(grant: TokenGrant, search: URLSearchParams, now: () => number): URLSearchParams {
  const query = new URLSearchParams(handoffScope(grant));
  const lastEventId = search.get('last_event_id');
  if (lastEventId !== null) query.set('last_event_id', lastEventId);
  const remaining = Math.max(1, Math.min(3600, grant.expiresAt - Math.floor(now() / 1000)));
  const asked = Number(search.get('max_seconds'));
  query.set('max_seconds', String(Number.isInteger(asked) && asked >= 1 ? Math.min(asked, remaining) : remaining));
  return query;
}

/** What a widget token may read of its bot's handoff settings: whether to offer a person, not the hours or intents. */
export function handoffProfile(settings: Record<string, unknown>): Record<string, unknown> {
  const { bot_id, enabled, available, unavailable_reason } = settings;
  return { bot_id, enabled, available, unavailable_reason };
}

/**
 * What a widget token may read of its bot: what the widget shows (name, language, quick replies,
 * avatar, its appearance) and what it lets visitors attach.
 * Never its training data, channels or description, which hold the account's own work.
 */
export function botProfile(bot: Record<string, unknown>): Record<string, unknown> {
  const { id, name, language, quick_replies, avatar_url, attachments, appearance } = bot;
  return { id, name, language, quick_replies, avatar_url, attachments, appearance };
}

/**
 * Whether any widget token could be let through `method path`: the allowlist above, asked without a
 * token (a CORS preflight carries none). A path naming a bot is taken as the token's own bot.
 */
export function isWidgetRoute(method: string, path: string): boolean {
  const named = /^\/v1\/bots\/([^/]+)/.exec(path)?.[1];
  let botId = 'bot';
  try {
    if (named) botId = decodeURIComponent(named);
  } catch {
    return false;
  }
  const grant: TokenGrant = { userId: 'anon', botId, agentId: null, scopes: [...ALL_SCOPES], origin: null, tokenId: '', expiresAt: 0 };
  try {
    planForward(method, path, new URLSearchParams(), grant);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides whether `method path` (the part from `/v1` on, already URL-normalised) may be forwarded
 * for `grant`, and how. Throws `permission_denied` for anything off the allowlist. `now`: the
 * proxy's clock (`ProxyOptions.now`), for an events stream's cap at the token's lifetime.
 */
export function planForward(method: string, path: string, search: URLSearchParams, grant: TokenGrant, now = () => Date.now()): ForwardPlan {
  if (method === 'POST' && path === '/v1/chat') {
    requireScope(grant, 'chat:write');
    return {
      path: '/v1/chat',
      query: new URLSearchParams(),
      hasBody: true,
      rewriteBody: (body) => asTokenUser(grant, withVerifiedVisitor(grant, body)),
    };
  }

  const feedback = /^\/v1\/messages\/([^/]+)\/feedback$/.exec(path);
  if (feedback && (method === 'POST' || method === 'DELETE')) {
    // feedback on an answer the token's user got (the service checks the message is theirs)
    requireScope(grant, 'chat:write');
    if (!MESSAGE_ID.test(feedback[1]!)) throw deny('That is not a message id.', 'message_id');
    const query = new URLSearchParams();
    if (method === 'DELETE') {
      const scope: Record<string, unknown> = {};
      for (const name of ['bot_id', 'agent_id'] as const) if (search.has(name)) scope[name] = search.get(name);
      for (const [name, value] of Object.entries(asTokenUser(grant, scope))) query.set(name, String(value));
    }
    return {
      path: `/v1/messages/${feedback[1]}/feedback`,
      query,
      hasBody: method === 'POST',
      rewriteBody: (body) => asTokenUser(grant, body),
    };
  }

  if (method === 'GET' && path === '/v1/chat/history') {
    requireScope(grant, 'chat:read');
    const query = new URLSearchParams();
    for (const name of HISTORY_PARAMS) {
      const value = search.get(name);
      if (value !== null) query.set(name, value);
    }
    checkBot(grant, query.get('bot_id') ?? undefined, 'bot_id');
    // Forced: the upstream then only answers this user's messages, whatever conversation is asked for.
    query.set('user_id', grant.userId);
    return { path, query, hasBody: false, rewriteBody: (body) => body };
  }

  const handoff = HANDOFF_ROUTE.exec(path);
  if (handoff) {
    // the token user's own conversation only: the service answers 404 for anyone else's
    const [, conversationId, route] = handoff as unknown as [string, string, 'handoff' | 'handoff/offline-messages' | 'handoff/typing' | 'events' | 'csat'];
    if (!CONVERSATION_ID.test(conversationId)) throw deny('That is not a conversation id.', 'conversation_id');
    const upstream = `/v1/conversations/${conversationId}/${route}`;
    const scope = handoffScope(grant);
    if (method === 'GET' && (route === 'handoff' || route === 'events' || route === 'csat')) {
      requireScope(grant, 'chat:read');
      const query = route === 'events' ? eventsQuery(grant, search, now) : new URLSearchParams(scope);
      return { path: upstream, query, hasBody: false, rewriteBody: (body) => body };
    }
    if (method === 'POST' && route !== 'events') {
      requireScope(grant, 'chat:write');
      return { path: upstream, query: new URLSearchParams(), hasBody: true, rewriteBody: (body) => ({ ...body, ...scope }) };
    }
  }

  const attachments = attachmentPlan(method, path, search, grant);
  if (attachments) return attachments;

  const botHandoff = /^\/v1\/bots\/([^/]+)\/handoff$/.exec(path);
  if (botHandoff && method === 'GET') {
    // whether the widget offers "Talk to a person": the token's own bot, projected
    requireScope(grant, 'bot:message');
    const botId = ownBot(grant, botHandoff[1]!);
    return {
      path: `/v1/bots/${encodeURIComponent(botId)}/handoff`,
      query: new URLSearchParams(),
      hasBody: false,
      rewriteBody: (body) => body,
      projectData: handoffProfile,
    };
  }

  const botRead = /^\/v1\/bots\/([^/]+)$/.exec(path);
  if (botRead && method === 'GET') {
    // the widget's starters: the token's own bot, projected to what the widget shows
    requireScope(grant, 'bot:message');
    const botId = ownBot(grant, botRead[1]!);
    return {
      path: `/v1/bots/${encodeURIComponent(botId)}`,
      query: new URLSearchParams(),
      hasBody: false,
      rewriteBody: (body) => body,
      projectData: botProfile,
    };
  }

  const botMessage = /^\/v1\/bots\/([^/]+)\/messages$/.exec(path);
  if (botMessage && method === 'POST') {
    requireScope(grant, 'bot:message');
    const botId = ownBot(grant, botMessage[1]!);
    return {
      path: `/v1/bots/${encodeURIComponent(botId)}/messages`,
      query: new URLSearchParams(),
      hasBody: true,
      rewriteBody: (body) => ({ ...withVerifiedVisitor(grant, body), user_id: grant.userId }),
    };
  }

  throw deny(`${method} ${path} is not available with a widget token.`);
}

/**
 * The visitor's files: upload one (its bytes passed on, as the token's user and for the token's
 * bot), read or remove their own. The service answers 404 for anyone else's.
 */
function attachmentPlan(method: string, path: string, search: URLSearchParams, grant: TokenGrant): ForwardPlan | null {
  const scope = handoffScope(grant);
  if (path === '/v1/attachments' && method === 'POST') {
    requireScope(grant, 'chat:write');
    const query = new URLSearchParams(scope);
    const conversationId = search.get('conversation_id');
    if (conversationId !== null) {
      if (!CONVERSATION_ID.test(conversationId)) throw deny('That is not a conversation id.', 'conversation_id');
      query.set('conversation_id', conversationId);
    }
    checkBot(grant, search.get('bot_id') ?? undefined, 'bot_id');
    const filename = search.get('filename');
    if (filename) query.set('filename', filename.slice(0, MAX_FILENAME));
    return { path, query, hasBody: 'file', rewriteBody: (body) => body };
  }
  const file = /^\/v1\/attachments\/([^/]+)$/.exec(path);
  if (!file || (method !== 'GET' && method !== 'DELETE')) return null;
  requireScope(grant, method === 'GET' ? 'chat:read' : 'chat:write');
  if (!ATTACHMENT_ID.test(file[1]!)) throw deny('That is not an attachment id.', 'attachment_id');
  return { path: `/v1/attachments/${file[1]}`, query: new URLSearchParams(scope), hasBody: false, rewriteBody: (body) => body };
}

/**
 * `response` with its success envelope's `data` narrowed by `project`. Refusals pass unchanged; a
 * success that is not a readable envelope is an upstream fault (nothing unprojected gets through).
 */
export async function projectResponse(
  response: Response,
  project: NonNullable<ForwardPlan['projectData']>,
): Promise<Response> {
  if (!response.ok) return response;
  type Envelope = { success?: unknown; data?: unknown } | null;
  const envelope = (await response.json().catch(() => null)) as Envelope;
  const data = envelope?.success === true ? envelope.data : null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ProxyError('upstream_error', 'The chat service answered something unreadable.');
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const body = JSON.stringify({ ...envelope, data: project(data as Record<string, unknown>) });
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
