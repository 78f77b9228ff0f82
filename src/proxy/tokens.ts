/**
 * Widget tokens: short-lived HS256 JWTs (jose) that stand for "this user may chat with this bot
 * from this origin until `exp`". They are only ever checked by this proxy, which holds the secret.
 *
 * Rotation: the first secret signs, every secret verifies; the `kid` header (a hash prefix of the
 * secret, which reveals nothing usable about it) picks the verifying secret directly.
 *
 * Speed: a widget sends the same token with every request until it expires, so a verified token's
 * grant is remembered (keyed by the whole token string, signature included, and re-checked for
 * expiry on every hit); a token seen for the first time costs one HMAC with a key imported once.
 */
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ProxyError } from './errors.js';
import { MAX_TOKEN_TTL_SECONDS, type ProxyScope } from './options.js';

const ALGORITHM = 'HS256';
/** Seconds of clock skew tolerated between the minting and the verifying instance. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** Verified tokens remembered per instance; the oldest is dropped first beyond this. */
const MAX_VERIFIED = 10_000;
/** Claims the host's `authorize().claims` cannot override. */
const RESERVED = new Set(['iss', 'aud', 'sub', 'exp', 'nbf', 'iat', 'jti', 'bot', 'agt', 'scp', 'org', 'name', 'email']);

/** What a verified token grants. */
export interface TokenGrant {
  /** The end user; replaces every `user_id` the browser sends. */
  userId: string;
  botId: string | null;
  agentId: string | null;
  scopes: ProxyScope[];
  /** The origin the token was minted for, when the request had one. */
  origin: string | null;
  /** Token id (`jti`). */
  tokenId: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** The user's name and email as the host's `authorize()` vouched for them (claims `name`, `email`). */
  name?: string;
  email?: string;
}

export interface MintRequest {
  userId: string;
  /** Verified traits of the user (`ProxyIdentity.name`, `email`). */
  name?: string;
  email?: string;
  botId: string | null;
  agentId: string | null;
  scopes: ProxyScope[];
  origin: string | null;
  claims?: Record<string, unknown>;
  ttlSeconds: number;
}

interface Key {
  id: string;
  /** Imported once: jose would otherwise import a raw secret again on every sign and verify. */
  key: CryptoKey;
}

function importHmacKey(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function keyId(secret: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', secret as Uint8Array<ArrayBuffer>));
  return base64url(digest.slice(0, 9));
}

export class TokenService {
  private keys: Promise<Key[]> | null = null;
  /** Token string → its grant, for tokens that passed `verify` (insertion order = age). */
  private readonly verified = new Map<string, TokenGrant>();

  /**
   * `maxLifetimeSeconds`: the longest `exp - iat` accepted (the proxy passes its `tokenTtlSeconds`).
   * A token holding the right signature but living longer, or issued in the future, was not minted
   * under this configuration (a leaked or misused secret, a clock far off): it is refused.
   */
  constructor(
    private readonly secrets: Uint8Array[],
    private readonly issuer: string,
    private readonly audience: string,
    private readonly maxLifetimeSeconds: number = MAX_TOKEN_TTL_SECONDS,
    /** The clock, epoch ms (`ProxyOptions.now`). */
    private readonly now: () => number = () => Date.now(),
  ) {}

  private loadKeys(): Promise<Key[]> {
    this.keys ??= Promise.all(this.secrets.map(async (secret) => ({ id: await keyId(secret), key: await importHmacKey(secret) })));
    return this.keys;
  }

  /** Signs a token; answers it with its expiry (epoch seconds). */
  async mint(request: MintRequest): Promise<{ token: string; expiresAt: number; tokenId: string }> {
    const [signing] = await this.loadKeys();
    const now = Math.floor(this.now() / 1000);
    const expiresAt = now + request.ttlSeconds;
    const tokenId = crypto.randomUUID();
    const extra = Object.fromEntries(Object.entries(request.claims ?? {}).filter(([name]) => !RESERVED.has(name)));
    const payload: JWTPayload = { ...extra, scp: request.scopes };
    if (request.botId) payload.bot = request.botId;
    if (request.agentId) payload.agt = request.agentId;
    if (request.origin) payload.org = request.origin;
    if (request.name) payload.name = request.name;
    if (request.email) payload.email = request.email;
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid: signing!.id })
      .setSubject(request.userId)
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setJti(tokenId)
      .sign(signing!.key);
    return { token, expiresAt, tokenId };
  }

  /** Verifies a token (signature, algorithm, issuer, audience, expiry) or throws 401. */
  async verify(token: string): Promise<TokenGrant> {
    const known = this.verified.get(token);
    // Same string, same signature: only the clock can have changed the verdict since.
    if (known && known.expiresAt + CLOCK_TOLERANCE_SECONDS > this.now() / 1000) return known;
    if (known) this.verified.delete(token); // expired: the full check below answers token_expired
    const grant = await this.verifyFully(token);
    this.verified.set(token, grant);
    if (this.verified.size > MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value!);
    return grant;
  }

  private async verifyFully(token: string): Promise<TokenGrant> {
    const keys = await this.loadKeys();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(
        token,
        (header) => {
          const key = keys.find((k) => k.id === header.kid);
          if (!key) throw new errors.JWSSignatureVerificationFailed('unknown key id');
          return key.key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: this.issuer,
          audience: this.audience,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: new Date(this.now()),
          requiredClaims: ['sub', 'exp', 'iat', 'jti'],
          // also refuses an `iat` in the future (beyond the tolerance)
          maxTokenAge: this.maxLifetimeSeconds,
        },
      ));
      if ((payload.exp as number) - (payload.iat as number) > this.maxLifetimeSeconds) {
        throw new errors.JWTClaimValidationFailed('the token lives longer than this proxy issues tokens for', payload, 'exp');
      }
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        throw new ProxyError('token_expired', 'The token has expired; get a new one from the token endpoint.', {
          headers: { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="expired"' },
        });
      }
      throw new ProxyError('invalid_token', 'The token is not valid.', {
        headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      });
    }
    return grantOf(payload);
  }
}

function grantOf(payload: JWTPayload): TokenGrant {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  const scopes = Array.isArray(payload.scp) ? payload.scp.filter((s): s is ProxyScope => typeof s === 'string') : [];
  const userId = text(payload.sub);
  const tokenId = text(payload.jti);
  if (!userId || !tokenId || typeof payload.exp !== 'number') {
    throw new ProxyError('invalid_token', 'The token is not valid.');
  }
  return {
    userId,
    botId: text(payload.bot),
    agentId: text(payload.agt),
    scopes,
    origin: text(payload.org),
    tokenId,
    expiresAt: payload.exp,
    ...(text(payload.name) && { name: text(payload.name)! }),
    ...(text(payload.email) && { email: text(payload.email)! }),
  };
}
