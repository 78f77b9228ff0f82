/**
 * Credentials at rest — a channel's platform credentials, an outgoing webhook's signing secret —
 * sealed with AES-256-GCM under a key from the environment (`AI_CHAT_SECRETS_KEY`, 32 bytes in
 * base64). Each sealed value names its key by id (the first 16 hex digits of the key's SHA-256), so
 * keys can be rotated: the new key seals, the keys in `AI_CHAT_SECRETS_PREVIOUS_KEYS` still open what
 * they sealed, and each owner seals its rows again under the current key at start
 * (docs/channels.md). The row's id is the additional data: a sealed value copied onto another row
 * does not open there.
 *
 * Without a key nothing is sealed or opened: saving channel credentials answers 503
 * `secrets_key_missing` (webhook signing secrets are then kept as they are, and sealed at the first
 * start with a key). The choice (no derived development key) is deliberate: a derived key would be
 * the same on every install, so "encrypted" credentials would be readable by anyone with the code.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ServiceError } from '../http/errors.ts';

/** A sealed value as stored (`channels.secrets`, `webhook_subscriptions.secret_sealed`). */
export interface Sealed {
  key_id: string;
  iv: string;
  tag: string;
  data: string;
}

const KEY_BYTES = 32;

/** A base64 key → its bytes; anything but 32 bytes is refused (a start with a mistyped key stops). */
export function parseKey(base64: string, name: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${name} must be ${KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`).`);
  return key;
}

export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);

export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  /** The id of the key that seals, or null without a key. */
  readonly currentKeyId: string | null;

  constructor(current: Buffer | undefined, previous: Buffer[] = []) {
    this.currentKeyId = current ? keyIdOf(current) : null;
    for (const key of [...previous, ...(current ? [current] : [])]) this.keys.set(keyIdOf(key), key);
  }

  private requireKey(): Buffer {
    const key = this.currentKeyId && this.keys.get(this.currentKeyId);
    if (!key) throw new ServiceError('secrets_key_missing', 'Channel credentials cannot be stored: the service has no AI_CHAT_SECRETS_KEY (see docs/channels.md).');
    return key;
  }

  /** Seals `values` (a JSON object of credentials) for the row `context` (its id). */
  seal(values: Record<string, string>, context: string): Sealed {
    const key = this.requireKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
    return { key_id: this.currentKeyId!, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  /** Opens a sealed value of row `context`; 503 `secrets_key_missing` when its key is not configured. */
  open(sealed: Sealed, context: string): Record<string, string> {
    const key = this.keys.get(sealed.key_id);
    if (!key) throw new ServiceError('secrets_key_missing', 'Credentials cannot be read: the key that sealed them is not configured (AI_CHAT_SECRETS_KEY, AI_CHAT_SECRETS_PREVIOUS_KEYS).');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Record<string, string>;
  }

  /** True when `sealed` should be sealed again under the current key (rotation). */
  stale(sealed: Sealed): boolean {
    return this.currentKeyId !== null && sealed.key_id !== this.currentKeyId && this.keys.has(sealed.key_id);
  }
}
