/// <reference types="node" />
// The dashboard's catalogs (src/dashboard/i18n): every language has exactly English's keys, the same
// {placeholders} and, for a plural message, every plural form its language uses; `t` fills them in.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { en, type Catalog, type Message } from '../../src/dashboard/i18n/catalog.js';
import { LOCALES, preferredLocale, setLocale, t } from '../../src/dashboard/i18n/i18n.js';
import { formatRelative } from '../../src/dashboard/ui/format.js';

const catalogs = {} as Record<(typeof LOCALES)[number], Catalog>;

const forms = (message: Message): string[] => (typeof message === 'string' ? [message] : Object.values(message));
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const allPlaceholders = (message: Message): string[] => [...new Set(forms(message).flatMap(placeholders))].sort();

/** What is wrong with `catalog` against English: missing or extra keys, placeholders, plural forms. */
function problems(lang: string, catalog: Catalog): string[] {
  const found: string[] = [];
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  for (const key of Object.keys(en)) if (!(key in catalog)) found.push(`missing ${key}`);
  for (const [key, message] of Object.entries(catalog) as [keyof typeof en, Message][]) {
    const english: Message | undefined = en[key];
    if (english === undefined) {
      found.push(`extra ${key}`);
      continue;
    }
    if (forms(message).some((text) => !text.trim())) found.push(`empty ${key}`);
    if (typeof english !== typeof message) found.push(`${key}: plural in one language only`);
    if (typeof message !== 'string') {
      for (const category of categories) if (!(category in message)) found.push(`${key}: no "${category}" form`);
      for (const category of Object.keys(message)) if (!(categories as string[]).includes(category)) found.push(`${key}: "${category}" is no ${lang} plural form`);
    }
    // A form may leave out {count} ("one conversation"), never a placeholder English does not have.
    const mine = allPlaceholders(message);
    const theirs = allPlaceholders(english);
    const required = typeof message === 'string' ? theirs : theirs.filter((name) => name !== 'count');
    if (mine.some((name) => !theirs.includes(name)) || required.some((name) => !mine.includes(name))) {
      found.push(`${key}: placeholders {${mine.join('}, {')}} for {${theirs.join('}, {')}}`);
    }
  }
  return found;
}

describe('dashboard catalogs', () => {
  before(async () => {
    catalogs.en = en;
    for (const lang of LOCALES) if (lang !== 'en') catalogs[lang] = (await import(`../../src/dashboard/i18n/${lang}/index.js`)).default;
  });

  for (const lang of LOCALES) {
    it(`${lang}: English's keys, placeholders and the language's plural forms`, () => {
      assert.deepEqual(problems(lang, catalogs[lang]), []);
    });
  }

  it('the check finds a missing key, an extra key, a placeholder mismatch and a missing plural form', () => {
    const { 'nav.overview': _, ...missing } = catalogs.de;
    const broken = { ...missing, 'nav.extra': 'x', 'shell.inboxLabel': 'Posteingang: {wartend}', 'list.deleteItem': { other: '{name} löschen' } };
    assert.deepEqual(problems('de', broken as unknown as Catalog), [
      'missing nav.overview',
      'shell.inboxLabel: placeholders {wartend} for {mine}, {waiting}',
      'list.deleteItem: plural in one language only',
      'list.deleteItem: no "one" form',
      'extra nav.extra',
    ]);
  });
});

describe('t()', () => {
  before(() => {
    // setLocale sets <html lang dir>: a stand-in document is enough here
    (globalThis as { document?: unknown }).document ??= { documentElement: {} };
  });

  it('fills placeholders, numbers formatted for the language, and picks the plural form by count', async () => {
    assert.equal(t('shell.inboxLabel', { waiting: 1234, mine: 1 }), 'Inbox: 1,234 waiting, 1 yours');
    assert.equal(t('overview.maxDays', { count: 1 }), 'At most 1 day at once.');
    assert.equal(t('overview.maxDays', { count: 31 }), 'At most 31 days at once.');
    await setLocale('de');
    assert.equal(t('shell.inboxLabel', { waiting: 1234, mine: 1 }), 'Posteingang: 1.234 wartend, 1 bei Ihnen');
    await setLocale('ar');
    assert.equal(document.documentElement.dir, 'rtl');
    const pair = (count: number) => t('quality.confusedPair', { count, intent: 'a', predicted: 'b' });
    assert.match(pair(2), /^حُسب مثالان /, 'the dual');
    assert.match(pair(3), /^حُسبت 3 أمثلة /, 'few');
    const now = Date.parse('2026-11-27T12:00:00Z');
    assert.equal(formatRelative('2026-11-27T12:05:00Z', now), new Intl.RelativeTimeFormat('ar', { numeric: 'auto' }).format(5, 'minute'));
    await setLocale('en');
    assert.equal(document.documentElement.dir, 'ltr');
    assert.equal(formatRelative('2026-11-27T12:05:00Z', now), 'in 5 minutes');
    assert.equal(formatRelative('2026-11-26T11:00:00Z', now), 'yesterday');
    assert.equal(t('list.deleteItem', { name: '{count}' }), 'Delete {count}', 'a value is not read as a placeholder');
  });
});

describe('preferredLocale()', () => {
  const stored = new Map<string, string>();
  const browser = (languages: string[]) =>
    Object.defineProperty(globalThis, 'navigator', { value: { languages }, configurable: true, writable: true });
  before(() => {
    Object.defineProperty(globalThis, 'localStorage', {
      value: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) },
      configurable: true,
    });
  });

  it("the picker's choice, else the browser's first language the dashboard speaks, else English", () => {
    browser(['pt-BR', 'de-AT', 'en']);
    assert.equal(preferredLocale(), 'de');
    browser(['pt-BR']);
    assert.equal(preferredLocale(), 'en');
    stored.set('aicd-locale', 'ja');
    assert.equal(preferredLocale(), 'ja');
    stored.set('aicd-locale', 'xx');
    browser(['ar-EG']);
    assert.equal(preferredLocale(), 'ar', 'a stored value that is no language is ignored');
  });
});
