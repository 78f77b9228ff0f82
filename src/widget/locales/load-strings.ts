/** Loading the built-in languages other than English: each is an add-on (catalog.ts). */
import { loadAddon } from '../addons/loader.js';
import { en, LANGUAGES, primary, resolveStrings, tables, type Language, type WidgetStrings } from './strings.js';

const loading = new Map<string, Promise<void>>();

/**
 * Loads the table of `lang` if it is a built-in language not at hand yet: a promise that settles
 * once it is (or once loading failed: English then stands in). `null`
 * when there is nothing to wait for.
 */
export function stringsLoading(lang: string): Promise<void> | null {
  const key = primary(lang);
  if (tables[key] || !(LANGUAGES as readonly string[]).includes(key)) return null;
  let pending = loading.get(key);
  if (!pending) {
    pending = loadAddon(key as Exclude<Language, 'en'>).then(
      (table) => void (tables[key] = table.default),
      // English stands in (the loader names the missing file in the console)
      () => void (tables[key] = en),
    );
    loading.set(key, pending);
  }
  return pending;
}

/** The strings for `lang` (see `resolveStrings`), once its table has loaded. */
export async function loadStrings(lang: string, overrides?: Partial<WidgetStrings>): Promise<WidgetStrings> {
  await stringsLoading(lang);
  return resolveStrings(lang, overrides);
}
