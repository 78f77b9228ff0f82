/**
 * What a catalog entry is, apart from any catalog: the area files (`en/*.ts` and their
 * translations) use these types, and `catalog.ts` joins the English areas, so the types live here
 * rather than there (an area importing its joiner would be an import circle).
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
/** A string with `{name}` placeholders, or its plural forms by `Intl.PluralRules` category (picked by `count`). */
export type Message = string | PluralForms;

/** The type of another language's version of an English area: the same keys, any message. */
export type Translation<Area> = { readonly [K in keyof Area]: Message };
