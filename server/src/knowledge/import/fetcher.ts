/**
 * Reading one web page for an import, with everything a tenant-supplied URL must not be able to do
 * ruled out: only `http:`/`https:` without credentials, only the import's own host (every redirect
 * hop too), only allowed addresses (checked on the address resolved at connect time:
 * `addresses.ts`), one deadline over the whole request including redirects (a page that never
 * ends is cut off), a cap on the bytes read, and only the content types the caller can use.
 */
import http from 'node:http';
import https from 'node:https';
import { assertAllowedLiteral, guardedLookup, type PrivateHosts } from './addresses.ts';
import { ImportIssueError } from './issue.ts';

export interface FetchPolicy {
  allowPrivateHosts: PrivateHosts;
  /** The whole request, redirects included. */
  timeoutMs: number;
  /** The most bytes read of one response. */
  maxBytes: number;
  /** The job's deadline: a request in flight is cut off with its reason. */
  signal?: AbortSignal;
}

export interface FetchedPage {
  /** Where the page was read after redirects. */
  url: URL;
  status: number;
  /** The media type without parameters, lower case (`text/html`). */
  mediaType: string;
  /** The `charset` parameter of its Content-Type, if any. */
  charset: string | undefined;
  body: Buffer;
}

const MAX_REDIRECTS = 5;
export const USER_AGENT = 'ai-chat-widget-import/1.0';

/** An import's URL, or the reason it can never be read (the same checks as each redirect hop). */
export function parseImportUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImportIssueError('unsupported_scheme', `${JSON.stringify(raw.slice(0, 100))} is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImportIssueError('unsupported_scheme', `Only http: and https: URLs can be imported, not ${url.protocol}.`);
  }
  if (url.username || url.password) {
    throw new ImportIssueError('credentials_in_url', 'URLs with a user name or password are refused: imports read public pages only.');
  }
  url.hash = '';
  return url;
}

interface Response {
  status: number;
  location?: string;
  mediaType: string;
  charset?: string;
  body: Buffer | null;
}

/**
 * GETs `url` following same-host redirects. Answers any final status (the body only for 2xx, and
 * only when `accepts` its media type); throws `ImportIssueError` for what must not be read.
 */
export async function fetchPage(url: URL, policy: FetchPolicy, accepts: (mediaType: string) => boolean): Promise<FetchedPage> {
  const deadline = Date.now() + policy.timeoutMs;
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await requestOnce(current, policy, deadline, accepts);
    if (response.status >= 300 && response.status < 400 && response.location !== undefined) {
      if (hop === MAX_REDIRECTS) throw new ImportIssueError('too_many_redirects', `More than ${MAX_REDIRECTS} redirects from ${url.href}.`);
      const next = parseImportUrl(new URL(response.location, current).href);
      // A hop to a forbidden address is reported as such even when it is another host as well.
      assertAllowedLiteral(next.hostname, policy.allowPrivateHosts);
      if (next.host !== url.host) {
        throw new ImportIssueError('other_host', `${current.href} redirects to another host (${next.host}); imports stay on ${url.host}.`);
      }
      current = next;
      continue;
    }
    return { url: current, status: response.status, mediaType: response.mediaType, charset: response.charset, body: response.body ?? Buffer.alloc(0) };
  }
}

function requestOnce(url: URL, policy: FetchPolicy, deadline: number, accepts: (mediaType: string) => boolean): Promise<Response> {
  return new Promise((resolve, reject) => {
    try {
      assertAllowedLiteral(url.hostname, policy.allowPrivateHosts);
    } catch (error) {
      return reject(error);
    }
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      signal: policy.signal,
      agent: false, // a fresh connection per request: every connect goes through the address check
      lookup: guardedLookup(policy.allowPrivateHosts),
      headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity', accept: 'text/html, text/markdown, text/plain, application/pdf, application/xml;q=0.9, */*;q=0.1' },
    });
    const fail = (error: unknown) => {
      clearTimeout(timer);
      request.destroy();
      reject(policy.signal?.aborted ? policy.signal.reason : toIssue(error, url));
    };
    const timer = setTimeout(
      () => fail(new ImportIssueError('fetch_timeout', `${url.href} did not answer completely within ${policy.timeoutMs} ms.`)),
      Math.max(0, deadline - Date.now()),
    );
    request.on('error', fail);
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const [type = '', ...parameters] = (res.headers['content-type'] ?? '').split(';');
      const mediaType = type.trim().toLowerCase();
      const charset = parameters.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find(Boolean);
      if (status < 200 || status >= 300) {
        res.resume();
        clearTimeout(timer);
        request.destroy();
        return resolve({ status, location: res.headers.location, mediaType, body: null });
      }
      if (!accepts(mediaType)) {
        return fail(new ImportIssueError('unsupported_content_type', `${url.href} is ${mediaType || 'of no declared type'}, which cannot be imported.`));
      }
      const tooLarge = () => new ImportIssueError('page_too_large', `${url.href} is larger than ${policy.maxBytes} bytes.`);
      if (Number(res.headers['content-length'] ?? 0) > policy.maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status, mediaType, charset, body: Buffer.concat(chunks) });
      });
    });
    request.end();
  });
}

function toIssue(error: unknown, url: URL): ImportIssueError {
  if (error instanceof ImportIssueError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new ImportIssueError('fetch_failed', `${url.href} could not be read (${code ?? (error as Error).message}).`);
}
