/**
 * One webhook request: a POST to a tenant's URL, which is untrusted. It connects only to addresses
 * the import checker allows (`knowledge/import/addresses.ts`, checked on the address DNS resolved
 * at connect time, so a name rebound to a private address is still refused), on a fresh connection
 * each time, follows no redirect, and ends at one deadline. Of the answer only the first bytes are
 * read: receivers are asked for a status, not a body.
 */
import http from 'node:http';
import https from 'node:https';
import { assertAllowedLiteral, guardedLookup, type PrivateHosts } from '../knowledge/import/addresses.ts';
import { ImportIssueError } from '../knowledge/import/issue.ts';

/** Bytes of an answer read, and kept in the delivery log. */
export const MAX_RESPONSE_BYTES = 1024;
/** The longest `Retry-After` honoured; a longer one waits this long. */
const MAX_RETRY_AFTER_MS = 60 * 60_000;
export const USER_AGENT = 'ai-chat-widget-webhooks/1.0';

export interface PostPolicy {
  allowPrivateHosts: PrivateHosts;
  timeoutMs: number;
  /** The service's own clock, to read a `Retry-After` date against. */
  now: () => number;
  signal: AbortSignal;
}

export interface PostResult {
  /** The receiver's status; null when none came (refused, unreachable, timed out). */
  status: number | null;
  /** The start of its answer (at most `MAX_RESPONSE_BYTES`). */
  response: string | null;
  /** What `Retry-After` asked for (429 and 503), capped. */
  retryAfterMs?: number;
  error?: string;
}

/** `Retry-After` in seconds or as an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(seconds) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds)) : undefined;
}

export function postWebhook(url: URL, body: string, headers: Record<string, string>, policy: PostPolicy): Promise<PostResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const failed = (error: unknown): PostResult => ({ status: null, response: null, error: describe(error, url) });
    try {
      assertAllowedLiteral(url.hostname, policy.allowPrivateHosts);
    } catch (error) {
      return resolve(failed(error));
    }
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      signal: policy.signal,
      agent: false, // a fresh connection per request: every connect goes through the address check
      lookup: guardedLookup(policy.allowPrivateHosts),
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
    });
    const timer = setTimeout(() => done({ status: null, response: null, error: `no answer within ${policy.timeoutMs} ms` }), policy.timeoutMs);
    request.on('error', (error) => done(failed(error)));
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const response = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8').replace(/\uFFFD$/, '');
        const wait = status === 429 || status === 503 ? retryAfterMs(res.headers['retry-after'], policy.now()) : undefined;
        done({ status, response, ...(wait !== undefined && { retryAfterMs: wait }), ...((status < 200 || status >= 300) && { error: `the receiver answered ${status}` }) });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) finish(); // the rest is not read
      });
      res.on('end', finish);
      res.on('error', finish);
    });
    request.end(body);
  });
}

function describe(error: unknown, url: URL): string {
  if (error instanceof ImportIssueError && error.code === 'private_address') {
    return `url_not_allowed: ${url.hostname} is or resolves to a private, loopback or reserved address`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ABORT_ERR') return 'stopped';
  return `could not connect (${code ?? (error as Error).message})`;
}
