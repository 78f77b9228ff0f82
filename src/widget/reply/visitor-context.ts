/**
 * The `visitor` a turn sends: the traits the site gave to `identify()` and, unless the site said
 * `no-visitor-context`, where the visitor is. Page and referrer go as origin and path: a query or a
 * fragment often carries tokens. Taken once per message, so that a retry (the same Idempotency-Key)
 * sends the very same body even after the visitor moved to another page; one small object per
 * message this page sent, kept for the page's life.
 */
import type { VisitorContext } from '../../client/types.js';
import type { ChatConfig } from '../core/chat-config.js';

const taken: Record<string, VisitorContext> = {};

/** `document.referrer` is empty or an absolute URL, `location.href` always the latter. */
const bare = (url: string, u = url && new URL(url)) => (u && /^https?:$/.test(u.protocol) ? (u.origin + u.pathname).slice(0, 2000) : undefined);

export const visitorContext = (messageId: string, config: ChatConfig): VisitorContext =>
  (taken[messageId] ??= {
    ...config.traits,
    ...(config.context && {
      page_url: bare(location.href),
      referrer: bare(document.referrer),
      locale: navigator.language,
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    }),
  });
