/**
 * The dashboard's UI language: `t(key, params)` over typed catalogs (catalog.ts). English is in the
 * initial load and fills any gap; the other languages are chunks imported when chosen. The choice
 * is the picker's (kept in localStorage), else the browser's `navigator.languages` when the
 * dashboard speaks one of them, else English. Elements re-render on a change through
 * `LocaleController`; `<html lang dir>` follows it (Arabic is right to left).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { en, type Catalog, type Message, type MessageKey } from './catalog.js';

/** The dashboard's languages: the widget's six. */
export const LOCALES = ['en', 'ar', 'de', 'es', 'fr', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language named in itself, for the picker. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  ar: 'العربية',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  ja: '日本語',
};

const STORAGE_KEY = 'aicd-locale';
const RTL: ReadonlySet<Locale> = new Set(['ar']);

const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Catalog }>> = {
  ar: () => import('./ar/index.js'),
  de: () => import('./de/index.js'),
  es: () => import('./es/index.js'),
  fr: () => import('./fr/index.js'),
  ja: () => import('./ja/index.js'),
};

let current: Locale = 'en';
let catalog: Catalog = en;
let plurals = new Intl.PluralRules('en');
const numbers = new Map<Locale, Intl.NumberFormat>();
/** Bumped by every `setLocale`, so a slow catalog never overrides a later choice. */
let generation = 0;

export type Params = Readonly<Record<string, string | number>>;

/**
 * The text of `key` in the current language: `{name}` placeholders take `params` (numbers
 * formatted for the language), and a plural message picks its form by `params.count`.
 */
export function t(key: MessageKey, params?: Params): string {
  const message: Message = catalog[key] ?? en[key];
  const text = typeof message === 'string' ? message : (message[plurals.select(Number(params?.count ?? 0))] ?? message.other);
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : typeof value === 'number' ? formatNumber(value) : value;
  });
}

/**
 * `t` for text with markup in it: the message split at its placeholders, each replaced by its
 * value as is (a template: `tParts('keys.hint', { api: html\`<code>/v1</code>\` })`), for Lit to render.
 */
export function tParts(key: MessageKey, parts: Readonly<Record<string, unknown>>): unknown[] {
  const marker = '\u0000';
  const text = t(key, Object.fromEntries(Object.keys(parts).map((name) => [name, `${marker}${name}${marker}`])));
  return text.split(marker).map((piece, i) => (i % 2 ? parts[piece] : piece));
}

/** A record of labels read in the current language at each access (`LABELS[key]` stays a plain read). */
export function labels<K extends string | number>(keys: Readonly<Record<K, MessageKey>>): Readonly<Record<K, string>> {
  const found = {} as Record<K, string>;
  for (const [k, key] of Object.entries(keys) as [K, MessageKey][]) Object.defineProperty(found, k, { get: () => t(key), enumerable: true });
  return found;
}

/** The current language (a BCP 47 tag `Intl` takes). */
export function locale(): Locale {
  return current;
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  if (options) return new Intl.NumberFormat(current, options).format(value);
  let format = numbers.get(current);
  if (!format) numbers.set(current, (format = new Intl.NumberFormat(current)));
  return format.format(value);
}

/** `tag` as one of the dashboard's languages (`de-AT` → `de`), or undefined. */
export function supported(tag: string | null | undefined): Locale | undefined {
  const primary = tag?.toLowerCase().split('-')[0];
  return (LOCALES as readonly string[]).includes(primary ?? '') ? (primary as Locale) : undefined;
}

/** The picker's stored choice, else the browser's first language the dashboard speaks, else English. */
export function preferredLocale(): Locale {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // storage blocked (a privacy setting): the browser's language still applies
  }
  return supported(stored) ?? navigator.languages.map(supported).find(Boolean) ?? 'en';
}

/**
 * Switches the language: loads its catalog (English stands in if that fails), sets `<html lang
 * dir>` and re-renders every `LocaleController` host. `persist` keeps it as the picker's choice.
 */
export async function setLocale(next: Locale, { persist = false } = {}): Promise<void> {
  const mine = ++generation;
  if (persist) {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // not kept: it still applies until the page closes
    }
  }
  let loaded: Catalog = en;
  if (next !== 'en') {
    try {
      loaded = (await loaders[next]()).default;
    } catch {
      // the chunk failed (offline, a new deploy): English rather than no text at all
    }
  }
  if (mine !== generation) return;
  current = next;
  catalog = loaded;
  plurals = new Intl.PluralRules(next);
  document.documentElement.lang = next;
  document.documentElement.dir = RTL.has(next) ? 'rtl' : 'ltr';
  for (const host of hosts) host.requestUpdate();
}

const hosts = new Set<ReactiveControllerHost>();

/** Re-renders its host when the language changes: `private readonly i18n = new LocaleController(this);`. */
export class LocaleController implements ReactiveController {
  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    hosts.add(this.host);
  }

  hostDisconnected(): void {
    hosts.delete(this.host);
  }
}
