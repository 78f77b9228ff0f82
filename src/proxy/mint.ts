/**
 * `POST {basePath}/token`: asks the host's `authorize` who the visitor is and answers a short-lived
 * widget token for that user and bot, plus where the widget should send its API calls.
 */
import type { SuccessEnvelope } from '../client/types.js';
import { jsonResponse, ProxyError } from './errors.js';
import { ALL_SCOPES, USER_ID_PATTERN, VISITOR_EMAIL, VISITOR_NAME, type ProxyIdentity, type ResolvedOptions } from './options.js';
import { readJsonObject } from './request.js';
import type { TokenService } from './tokens.js';

/** `data` of the token endpoint's answer. */
export interface TokenResponseData {
  token: string;
  /** ISO-8601 UTC. */
  expires_at: string;
  user_id: string;
  bot_id: string | null;
  /** Base URL for the widget's API calls (`{mount}{basePath}/v1`). */
  api_base: string;
}

/**
 * An anonymous id the widget generated and kept (`anon_` + a random UUID or hex). Honouring it keeps
 * a visitor's history across token renewals; it can only ever name an anonymous user, never a real one.
 */
const ANONYMOUS_ID = /^anon_[A-Za-z0-9-]{20,100}$/;

export function anonymousId(requested: unknown): string {
  if (typeof requested === 'string' && ANONYMOUS_ID.test(requested)) return requested;
  return `anon_${crypto.randomUUID()}`;
}

async function identify(request: Request, options: ResolvedOptions, body: Record<string, unknown>): Promise<ProxyIdentity> {
  const identity = options.authorize ? await options.authorize(request) : null;
  if (identity) {
    if (typeof identity.userId !== 'string' || !USER_ID_PATTERN.test(identity.userId)) {
      throw new Error('authorize() answered a userId that is not 1–128 characters of [A-Za-z0-9._:@-]');
    }
    if (identity.name !== undefined && (typeof identity.name !== 'string' || !VISITOR_NAME.test(identity.name))) {
      throw new Error('authorize() answered a name that is not 1–100 characters without control characters');
    }
    if (identity.email !== undefined && (typeof identity.email !== 'string' || identity.email.length > 254 || !VISITOR_EMAIL.test(identity.email))) {
      throw new Error('authorize() answered an email that is not a valid address of at most 254 characters');
    }
    return identity;
  }
  if (!options.allowAnonymous) {
    throw new ProxyError('authentication_required', 'Sign in to chat.', {
      headers: { 'WWW-Authenticate': 'Bearer realm="ai-chat-widget-proxy"' },
    });
  }
  return { userId: anonymousId(body.user_id) };
}

/** The bot the token is for: the identity's, else the configured one; the widget may only ask for an allowed one. */
function chooseBot(identity: ProxyIdentity, options: ResolvedOptions, requested: unknown): string | null {
  const granted = identity.botId ?? options.botId ?? null;
  if (requested === undefined || requested === null || requested === '' || requested === granted) return granted;
  if (typeof requested === 'string' && options.allowedBotIds.has(requested) && !identity.botId) return requested;
  throw new ProxyError('permission_denied', 'No token can be issued for that bot.', { param: 'bot_id' });
}

export async function mintToken(
  request: Request,
  context: {
    options: ResolvedOptions;
    tokens: TokenService;
    origin: string | null;
    apiBase: string;
    requestId: string;
    startedAt: number;
  },
): Promise<Response> {
  const { options } = context;
  const body = await readJsonObject(request, { maxBytes: 4096, optional: true });
  const identity = await identify(request, options, body);
  const botId = chooseBot(identity, options, body.bot_id);
  const scopes = identity.scopes?.filter((s) => ALL_SCOPES.includes(s)) ?? [...ALL_SCOPES];
  const { token, expiresAt } = await context.tokens.mint({
    userId: identity.userId,
    botId,
    agentId: identity.agentId ?? null,
    scopes,
    origin: context.origin,
    claims: identity.claims,
    name: identity.name,
    email: identity.email,
    ttlSeconds: options.tokenTtlSeconds,
  });
  const envelope: SuccessEnvelope<TokenResponseData> = {
    success: true,
    data: {
      token,
      expires_at: new Date(expiresAt * 1000).toISOString(),
      user_id: identity.userId,
      bot_id: botId,
      api_base: context.apiBase,
    },
    meta: {
      request_id: context.requestId,
      latency_ms: Math.round((performance.now() - context.startedAt) * 100) / 100,
    },
  };
  return jsonResponse(envelope, 200, { 'X-Request-Id': context.requestId });
}
