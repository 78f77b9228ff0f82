/// <reference types="node" />
// Every built-in locale is complete, and `strings` overrides any key in any locale. The tables other
// than English are add-ons (src/widget/addons/catalog.ts), loaded here as a page in that language loads them.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { attachmentStrings } from '../../src/widget/addons/attachments.js';
import { handoffStrings } from '../../src/widget/addons/handoff.js';
import { csatStrings } from '../../src/widget/addons/csat-survey.js';
import { loadStrings, stringsLoading } from '../../src/widget/locales/load-strings.js';
import { LANGUAGES, en, resolveStrings, type WidgetStrings } from '../../src/widget/locales/strings.js';

/** What the widget shows: English's handoff, attachment and survey strings come with their add-ons (handoff.ts, attachments.ts, csat-survey.ts), under the table. */
const shown = (strings: WidgetStrings): WidgetStrings => ({ ...handoffStrings, ...attachmentStrings, ...csatStrings, ...strings });

/** Every key of WidgetStrings: the Record type makes this list fail to compile when a key is added. */
const KEYS: Record<keyof WidgetStrings, true> = {
  title: true, openChat: true, closeChat: true, transcript: true, inputLabel: true, placeholder: true,
  hideChat: true, characterCount: true, tooLong: true,
  send: true, you: true, assistant: true, typing: true, suggestions: true, sources: true, copy: true, copied: true, table: true, retry: true,
  notSent: true, rateLimited: true, offline: true, errorNetwork: true, errorTimeout: true,
  errorServer: true, errorAuth: true, errorSetup: true, errorUnavailable: true, errorGeneric: true, welcome: true,
  stop: true, stopped: true, newConversation: true, confirmReset: true, cancel: true, unread: true, dismiss: true,
  goodAnswer: true, badAnswer: true, feedbackReason: true, feedbackReasons: true, feedbackComment: true,
  talkToPerson: true, handoffWaiting: true, handoffJoined: true, handoffTyping: true, handoffBack: true, handoffClosed: true,
  handoffOutsideHours: true, handoffNobodyOnline: true, leaveMessage: true, offlineEmail: true, offlineMessage: true, offlineSent: true,
  attach: true, attachments: true, dropFiles: true, removeFile: true, uploading: true, uploadWait: true, fileTooLarge: true, fileType: true,
  tooManyFiles: true, tooManyPending: true, filesOff: true, uploadFailed: true, download: true, downloadFailed: true,
  csatQuestion: true, csatRatings: true, csatComment: true, csatThanks: true,
};
const keys = Object.keys(KEYS) as Array<keyof WidgetStrings>;
const LANGS = ['en', 'de', 'fr', 'es', 'ar', 'ja'] as const;

const locales = {} as Record<(typeof LANGS)[number], WidgetStrings>;

describe('widget strings: loading a language', () => {
  it('English is at hand at once; another language gives English until its table has loaded', async () => {
    assert.deepEqual(resolveStrings('en'), en);
    assert.equal(stringsLoading('en-GB'), null, 'nothing to wait for');
    assert.equal(stringsLoading('xx'), null, 'nothing to load for a language that is not built in');
    assert.deepEqual(resolveStrings('fr-CA'), en);
    const pending = stringsLoading('fr-CA');
    assert.ok(pending, 'French is loading');
    assert.equal(stringsLoading('FR'), pending, 'one load per language');
    await pending;
    assert.equal(resolveStrings('fr-CA').send, 'Envoyer');
    assert.equal(stringsLoading('fr'), null, 'loaded: nothing to wait for');
  });
});

describe('widget strings (i18n)', () => {
  before(async () => {
    for (const lang of LANGS) locales[lang] = shown(await loadStrings(lang));
  });

  it('ships exactly the documented locales', () => {
    assert.deepEqual([...LANGUAGES].sort(), [...LANGS].sort());
  });

  for (const lang of LANGS) {
    it(`${lang} defines every key, non-empty, and nothing else`, () => {
      const table = locales[lang] as unknown as Record<string, unknown>;
      assert.deepEqual(Object.keys(table).sort(), [...keys].sort());
      for (const key of keys) {
        const value = table[key];
        assert.equal(typeof value, 'string', `${lang}.${key}`);
        assert.ok((value as string).trim().length > 0, `${lang}.${key} is empty`);
      }
      assert.match(table.rateLimited as string, /\{n\}/, `${lang}.rateLimited lost its {n} placeholder`);
      assert.match(table.characterCount as string, /\{n\}.*\{max\}/, `${lang}.characterCount needs {n} and {max}`);
      assert.match(table.tooLong as string, /\{max\}/, `${lang}.tooLong lost its {max} placeholder`);
      assert.match(table.unread as string, /\{n\}/, `${lang}.unread lost its {n} placeholder`);
      assert.equal((table.feedbackReasons as string).split('|').length, 4, `${lang}.feedbackReasons: the four reasons, |-separated`);
      assert.equal((table.csatRatings as string).split('|').length, 5, `${lang}.csatRatings: the five ratings, |-separated`);
      assert.notEqual(table.hideChat, table.closeChat, `${lang}: the launcher and the close button need different names`);
      // the table is what a page in that language gets, region subtags included
      assert.deepEqual(shown(resolveStrings(lang)), locales[lang]);
      assert.deepEqual(shown(resolveStrings(`${lang.toUpperCase()}-XX`)), locales[lang]);
      for (const key of ['handoffJoined', 'handoffTyping'] as const) assert.match(table[key] as string, /\{name\}/, `${lang}.${key} lost its {name} placeholder`);
      assert.match(table.offlineSent as string, /\{email\}/, `${lang}.offlineSent lost its {email} placeholder`);
      for (const key of ['removeFile', 'uploading', 'fileTooLarge', 'fileType', 'tooManyFiles', 'uploadFailed', 'downloadFailed'] as const) {
        assert.match(table[key] as string, /\{name\}/, `${lang}.${key} lost its {name} placeholder`);
      }
      assert.match(table.fileTooLarge as string, /\{max\}/, `${lang}.fileTooLarge lost its {max} placeholder`);
      assert.match(table.tooManyFiles as string, /\{n\}/, `${lang}.tooManyFiles lost its {n} placeholder`);
    });
  }

  it('translates: each non-English locale differs from English in most keys', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const same = keys.filter((key) => locales[lang][key] === locales.en[key]);
      assert.ok(same.length <= keys.length / 4, `${lang} copies English for ${same.join(', ')}`);
    }
  });

  it('`strings` overrides any key in any locale, and only that key', () => {
    for (const lang of LANGS) {
      for (const key of keys) {
        const resolved = shown(resolveStrings(lang, { [key]: `custom ${key}` }));
        assert.equal(resolved[key], `custom ${key}`);
        for (const other of keys) if (other !== key) assert.equal(resolved[other], locales[lang][other]);
      }
    }
    assert.deepEqual(shown(resolveStrings('xx-YY')), locales.en, 'unknown languages fall back to English');
  });

  it("keeps English's handoff and survey strings out of the widget's own table (a page without handoff never downloads them)", () => {
    for (const key of [...Object.keys(handoffStrings), ...Object.keys(csatStrings)]) assert.equal(key in en, false, key);
  });
});
