/**
 * Which `Host` names the service answers (DNS rebinding). A page on `evil.test` can point its own
 * name at 127.0.0.1 and then call this service as same-origin: the browser sends `Host: evil.test`,
 * a matching `Origin`, and reads the answer. Refusing every name but the service's own stops that
 * for every route, the dashboard's sign-up (which claims an unclaimed install) first of all.
 *
 * Always served: loopback names, which no DNS answer can move elsewhere (`localhost`, `*.localhost`,
 * 127.0.0.0/8, `[::1]`), on any port. Then the hosts of the configured public URLs
 * (`AI_CHAT_PUBLIC_URL`), port included, and any extra names (the bind address, when the service
 * listens beyond loopback without a public URL: see `startServer`), on any port. Anything else
 * answers 421 `host_not_allowed`.
 */
import { isIPv4 } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { ServiceError } from './errors.ts';

/** `https://chat.example.com:8443/path` → `chat.example.com:8443`; throws on anything but an http(s) URL. */
export function publicHost(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`AI_CHAT_PUBLIC_URL: "${url}" is not a URL (e.g. https://chat.example.com)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`AI_CHAT_PUBLIC_URL: "${url}" must be an http:// or https:// URL`);
  }
  return parsed.host;
}

/** The host name of a `Host` value, without its port (`[::1]:8787` → `[::1]`). */
function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
}

export function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '[::1]' ||
    (isIPv4(name) && name.startsWith('127.'))
  );
}

export class AllowedHosts {
  private readonly hosts: Set<string>;
  private readonly names: Set<string>;

  /**
   * `publicUrls`: the service's own URLs (their host and port must match); `names`: host names (IP
   * literals, IPv6 in brackets) served on any port.
   */
  constructor(publicUrls: readonly string[], names: readonly string[] = []) {
    this.hosts = new Set(publicUrls.map((url) => publicHost(url).toLowerCase()));
    this.names = new Set(names.map((name) => name.toLowerCase()));
  }

  allows(host: string): boolean {
    const lower = host.toLowerCase();
    const name = hostName(lower);
    return isLoopbackName(name) || this.names.has(name) || this.hosts.has(lower);
  }
}

/** 421 `host_not_allowed` for a request whose URL (built from `Host`) names another host. */
export function allowedHostsOnly(hosts: AllowedHosts): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { host } = new URL(c.req.url);
    if (!hosts.allows(host)) {
      throw new ServiceError(
        'host_not_allowed',
        `This service does not answer for the host ${host.slice(0, 200)}; set AI_CHAT_PUBLIC_URL to its public URL.`,
      );
    }
    await next();
  };
}
