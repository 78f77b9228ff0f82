/**
 * A browser-like client of the dashboard surface for tests: it keeps the session cookie (as a
 * browser's cookie jar would, honouring Max-Age=0), sends this origin's `Origin` header and the
 * session's CSRF token on writes, all through the real service's fetch handler.
 */
import type { Service } from '../../src/index.ts';

export const ORIGIN = 'http://127.0.0.1';

export interface DashboardCallOptions {
  body?: unknown;
  /** Override the Origin header; null sends none. */
  origin?: string | null;
  /** Override the X-CSRF-Token header; null sends none. */
  csrf?: string | null;
  /** Override the cookie; null sends none. */
  cookie?: string | null;
  /** Request URL base, e.g. `https://dash.example` to arrive over HTTPS. */
  base?: string;
  headers?: Record<string, string>;
}

export interface DashboardResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The raw Set-Cookie headers of this answer. */
  setCookies: string[];
}

export class DashboardClient {
  cookie: string | null = null;
  csrf: string | null = null;

  constructor(readonly service: Service) {}

  async call<T = any>(method: string, path: string, options: DashboardCallOptions = {}): Promise<DashboardResult<T>> {
    const headers = new Headers(options.headers);
    const origin = options.origin === undefined ? ORIGIN : options.origin;
    if (origin) headers.set('origin', origin);
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    if (csrf && method !== 'GET') headers.set('x-csrf-token', csrf);
    const cookie = options.cookie === undefined ? this.cookie : options.cookie;
    if (cookie) headers.set('cookie', `aicw_session=${cookie}`);
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.body instanceof Uint8Array) {
      body = options.body as Uint8Array<ArrayBuffer>; // a file: sent as it is
      headers.set('content-type', 'application/octet-stream');
    } else if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers.set('content-type', 'application/json');
    }
    const res = await this.service.fetch(new Request(`${options.base ?? ORIGIN}${path}`, { method, headers, body }));
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const match = /^aicw_session=([^;]*)/.exec(line);
      if (!match) continue;
      this.cookie = /max-age=0/i.test(line) || match[1] === '' ? null : match[1]!;
    }
    const text = await res.text();
    const parsed = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    const csrfToken = (parsed as { data?: { csrf_token?: string } })?.data?.csrf_token;
    if (csrfToken) this.csrf = csrfToken;
    return { status: res.status, headers: res.headers, body: parsed as T, setCookies };
  }

  signUp(email: string, password = 'correct horse battery', extra: Record<string, unknown> = {}) {
    return this.call('POST', '/dashboard/api/signup', { body: { email, password, ...extra } });
  }

  signIn(email: string, password = 'correct horse battery') {
    return this.call('POST', '/dashboard/api/signin', { body: { email, password } });
  }
}

let counter = 0;
/** A fresh email per call: sign-in limits are counted per email across a shared Redis. */
export function uniqueEmail(name = 'user'): string {
  return `${name}.${process.pid}.${Date.now()}.${counter++}@example.test`;
}
