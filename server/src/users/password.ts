/**
 * Password hashing with scrypt (node:crypto, memory-hard), stored as a self-describing PHC-style
 * string `$scrypt$ln=15,r=8,p=3$<salt>$<hash>` so the parameters can be raised later without
 * breaking stored hashes (verification reads them from the string).
 *
 * Parameters: N = 2^15, r = 8, p = 3, a 16-byte salt, a 32-byte output. Memory is 128·N·r = 32 MiB
 * per hash; p = 3 multiplies the work, not the memory. This is one of the equal-strength choices the
 * OWASP Password Storage Cheat Sheet lists (N=2^17,p=1 … N=2^15,p=3 … N=2^13,p=10): the lower-memory
 * one, so a burst of sign-ins on a small server cannot take 128 MiB each. Measured ≈ 230 ms per hash
 * on the 2-core CI box; sign-in is rate limited per address and per account (users/routes.ts).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const LOG2_N = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 3;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Highest cost a stored hash may ask for: a tampered row must not make verification eat the memory. */
const MAX_LOG2_N = 20;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number, bytes: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** log2N, r, p, maxmem: 256 * 2 ** log2N * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, bytes, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, LOG2_N, BLOCK_SIZE, PARALLELISM, HASH_BYTES);
  return `$scrypt$ln=${LOG2_N},r=${BLOCK_SIZE},p=${PARALLELISM}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{16,})$/;

/** Compares in constant time; a malformed stored hash verifies as false (never throws on input). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [log2N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (log2N < 1 || log2N > MAX_LOG2_N || r < 1 || p < 1) return false;
  const salt = Buffer.from(match[4]!, 'base64url');
  const expected = Buffer.from(match[5]!, 'base64url');
  const actual = await derive(password, salt, log2N, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;

/**
 * A hash of a random password with the current parameters. Sign-in verifies against it when the
 * email is unknown, so an unknown email costs the same KDF work as a wrong password and timing does
 * not tell the two apart.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
