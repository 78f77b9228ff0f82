/** Prefixed random ids (`bot_…`, `msg_…`): readable in logs, unguessable, URL-safe. */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghijkmnopqrstvwxyz';

export type IdPrefix = 'acct' | 'key' | 'bot' | 'agt' | 'job' | 'conv' | 'msg' | 'kb' | 'kbi' | 'req' | 'usr' | 'inv' | 'ofm' | 'att' | 'chn' | 'whk' | 'dlv' | 'evt' | 'cnr';

export function newId(prefix: IdPrefix, length = 20): string {
  const bytes = randomBytes(length);
  let out = '';
  // 56 symbols: the modulo bias is negligible for ids, and no secret is derived from them.
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

/** The shape every id in a path or body must have; anything else is rejected at the edge. */
export const ID_PATTERN = '^[a-z]{2,4}_[0-9A-Za-z]{8,40}$';

/** The shape of one kind's ids (`idPatternOf('bot')`: `^bot_…`), for a schema or a check at the edge. */
export const idPatternOf = (prefix: IdPrefix): string => `^${prefix}_${ID_PATTERN.slice(ID_PATTERN.indexOf('_') + 1)}`;
