/**
 * The one route table of the dashboard: hash paths (`#/bots/bot_123`) to page elements. Each page
 * module is imported on first visit by its path `./pages/<module>.ts`, so a page that does not
 * exist yet shows "coming" instead of breaking the build, and each page is its own chunk.
 *
 * Add a page here: `path` matches the part after `#/`, its groups become the element's
 * properties named in `params`; the shell sets `client` (the typed /v1 client over the session),
 * `csrfToken` and `session` on every page.
 */

import type { MessageKey } from './i18n/catalog.js';
import { t } from './i18n/i18n.js';

export interface RouteEntry {
  /** Matched against the hash without `#/`, whole. */
  path: RegExp;
  /** The page element's tag. */
  tag: string;
  /** The module defining `tag`: `./pages/<module>.ts`. */
  module: string;
  /** The page's English name (for errors); the document title is `titleKey`'s, else its nav entry's. */
  title: string;
  /** The translated title, when it is not the nav entry's (`routeTitle`). */
  titleKey?: MessageKey;
  /** Property names for `path`'s capture groups, in order. */
  params?: readonly string[];
  /** The navigation entry that is current on this route. */
  nav: string;
}

export type NavId = 'overview' | 'bots' | 'agents' | 'knowledge' | 'conversations' | 'inbox' | 'keys' | 'channels' | 'webhooks' | 'team' | 'account';

export interface NavEntry {
  id: NavId;
  href: string;
}

/** A navigation entry's label in the dashboard's language. */
export const navLabel = (id: NavId): string => t(`nav.${id}`);

/** The page's title in the dashboard's language (the document title, "coming"). */
export function routeTitle(entry: RouteEntry): string {
  if (entry.titleKey) return t(entry.titleKey);
  return isNavId(entry.nav) ? navLabel(entry.nav) : entry.title;
}

const isNavId = (nav: string): nav is NavId => NAV.some((item) => item.id === nav);

export const NAV: readonly NavEntry[] = [
  { id: 'overview', href: '#/overview' },
  { id: 'bots', href: '#/bots' },
  { id: 'agents', href: '#/agents' },
  { id: 'knowledge', href: '#/knowledge' },
  { id: 'conversations', href: '#/conversations' },
  { id: 'inbox', href: '#/inbox' },
  { id: 'keys', href: '#/keys' },
  { id: 'channels', href: '#/channels' },
  { id: 'webhooks', href: '#/webhooks' },
  { id: 'team', href: '#/team' },
  { id: 'account', href: '#/account' },
];

export const ROUTES: readonly RouteEntry[] = [
  { path: /^overview$/, tag: 'aicd-overview-page', module: 'overview-page', title: 'Overview', nav: 'overview' },
  { path: /^bots$/, tag: 'aicd-bots-page', module: 'bots-page', title: 'Bots', nav: 'bots' },
  { path: /^bots\/([A-Za-z0-9_-]+)$/, tag: 'aicd-bot-editor', module: 'bot-editor', title: 'Bot', titleKey: 'route.bot', params: ['botId'], nav: 'bots' },
  { path: /^bots\/([A-Za-z0-9_-]+)\/channels$/, tag: 'aicd-channels-page', module: 'channels-page', title: 'Channels', params: ['botId'], nav: 'channels' },
  { path: /^channels$/, tag: 'aicd-channels-page', module: 'channels-page', title: 'Channels', nav: 'channels' },
  { path: /^agents$/, tag: 'aicd-agents-page', module: 'agents-page', title: 'Agents', nav: 'agents' },
  { path: /^knowledge$/, tag: 'aicd-knowledge-page', module: 'knowledge-page', title: 'Knowledge', nav: 'knowledge' },
  { path: /^conversations$/, tag: 'aicd-conversations-page', module: 'conversations-page', title: 'Conversations', nav: 'conversations' },
  {
    path: /^conversations\/([A-Za-z0-9_-]+)$/,
    tag: 'aicd-conversations-page',
    module: 'conversations-page',
    title: 'Conversation',
    titleKey: 'route.conversation',
    params: ['conversationId'],
    nav: 'conversations',
  },
  { path: /^inbox$/, tag: 'aicd-inbox-page', module: 'inbox-page', title: 'Inbox', nav: 'inbox' },
  { path: /^keys$/, tag: 'aicd-keys-page', module: 'keys-page', title: 'API keys', nav: 'keys' },
  { path: /^webhooks$/, tag: 'aicd-webhooks-page', module: 'webhooks-page', title: 'Webhooks', nav: 'webhooks' },
  { path: /^team$/, tag: 'aicd-team-page', module: 'team-page', title: 'Team', nav: 'team' },
  { path: /^account$/, tag: 'aicd-account-page', module: 'account-page', title: 'Account', nav: 'account' },
];

export const DEFAULT_ROUTE = 'overview';

export interface ResolvedRoute {
  entry: RouteEntry;
  params: Record<string, string>;
}

/** `#/bots/bot_1` → the bot editor with `{botId: 'bot_1'}`; unknown or empty → null. */
export function resolveRoute(hash: string): ResolvedRoute | null {
  const path = hash.replace(/^#\/?/, '');
  for (const entry of ROUTES) {
    const match = entry.path.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    entry.params?.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
    return { entry, params };
  }
  return null;
}

/**
 * Loads a page module: null when its element is defined, else why not. A page that is not written
 * yet is the usual reason (the build then has no such module).
 */
export async function loadPage(entry: RouteEntry): Promise<string | null> {
  if (customElements.get(entry.tag)) return null;
  try {
    await import(`./pages/${entry.module}.ts`);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return customElements.get(entry.tag) ? null : `${entry.module}.ts does not define <${entry.tag}>.`;
}
