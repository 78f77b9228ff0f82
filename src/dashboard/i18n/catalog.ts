/**
 * The catalogs' shape. English (`en/*.ts`, one file per area) is the source of truth: its keys are
 * `MessageKey`, and every other language is a `Catalog`, so a key missing or extra there is a type
 * error (test/node/dashboard-i18n.test.ts checks the placeholders and plural forms too). A message is
 * a string with `{name}` placeholders, or its plural forms by `Intl.PluralRules` category, picked
 * by the `count` parameter.
 */
import { shell } from './en/shell.js';
import { pages } from './en/pages.js';
import { bots } from './en/bots.js';
import { admin } from './en/admin.js';
import { support } from './en/support.js';

import type { Translation } from './message.js';

export type { Message, PluralForms, Translation } from './message.js';

export const en = { ...shell, ...pages, ...bots, ...admin, ...support } as const;
export type MessageKey = keyof typeof en;
export type Catalog = Translation<typeof en>;
