/**
 * What a widget token may do upstream: the allowlist of routes and the rewriting of each request so
 * that it can only act as the token's user, with the token's bot. Everything else is 403
 * `permission_denied` (bot management, agents, knowledge, analytics: key holders only).
 */
import { ProxyError } from './errors.js';
import type { ProxyScope } from './options.js';
import type { TokenGrant } from './tokens.js';

/** A request the proxy agreed to forward: where to, with which query and (JSON) body. */
export interface ForwardPlan {
  /** Upstream path, `/v1/…`, rebuilt from known parts (never the browser's raw path). */
  path: string;
  query: URLSearchParams;
  /** True when the route takes a JSON body (it is read, rewritten and re-serialised). */
  hasBody: boolean;
  rewriteBody(body: Record<string, unknown>): Record<string, unknown>;
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

/**
 * Decides whether `method path` (the part from `/v1` on, already URL-normalised) may be forwarded
 * for `grant`, and how. Throws `permission_denied` for anything off the allowlist.
 */
export function planForward(method: string, path: string, search: URLSearchParams, grant: TokenGrant): ForwardPlan {
  if (method === 'POST' && path === '/v1/chat') {
    requireScope(grant, 'chat:write');
    return {
      path: '/v1/chat',
      query: new URLSearchParams(),
      hasBody: true,
      rewriteBody(body) {
        checkBot(grant, body.bot_id, 'bot_id');
        if (body.agent_id !== undefined && body.agent_id !== grant.agentId) {
          throw deny('This token is not valid for that agent.', 'agent_id');
        }
        const rewritten: Record<string, unknown> = { ...body, user_id: grant.userId };
        // a bot-bound token chats with its bot unless it names its agent
        if (grant.botId && rewritten.agent_id === undefined) rewritten.bot_id = grant.botId;
        return rewritten;
      },
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

  const botMessage = /^\/v1\/bots\/([^/]+)\/messages$/.exec(path);
  if (botMessage && method === 'POST') {
    requireScope(grant, 'bot:message');
    let botId: string;
    try {
      botId = decodeURIComponent(botMessage[1]!);
    } catch {
      throw deny('This token is not valid for that bot.', 'bot_id');
    }
    if (!grant.botId || botId !== grant.botId) throw deny('This token is not valid for that bot.', 'bot_id');
    return {
      path: `/v1/bots/${encodeURIComponent(grant.botId)}/messages`,
      query: new URLSearchParams(),
      hasBody: true,
      rewriteBody: (body) => ({ ...body, user_id: grant.userId }),
    };
  }

  throw deny(`${method} ${path} is not available with a widget token.`);
}
