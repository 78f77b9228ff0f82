/**
 * Regex entities are kept out of nlp.js: its extractor runs each pattern as a backtracking `RegExp`
 * on the event loop (one `(a|a)+$` froze the service) and loops forever on an empty match. Tenant
 * patterns run in the pattern worker on RE2 instead (tenant-regex.mjs), and the matches are handed to
 * nlp.js through its extractor hook for custom entities (`extract-builtin-<locale>`), so nlp.js uses
 * them as it used its own: `@entity` in classification, entities in the result.
 */
import type { TenantMatch } from './tenant-regex.mjs';

export interface RegexEntity {
  name: string;
  pattern: string;
}

/** Matches each pattern against a message; `output[i]` belongs to `patterns[i]`. */
export type PatternMatcher = (patterns: string[], text: string) => Promise<TenantMatch[][]>;

/** An edge as nlp.js's NER passes it between extractors (`end` inclusive). */
export interface NerEdge {
  start: number;
  end: number;
  len: number;
  accuracy: number;
  sourceText: string;
  utteranceText: string;
  entity: string;
  type: 'regex' | 'enum';
  /** A list entity's value. */
  option?: string;
}

interface NerRules {
  rules?: Record<string, Record<string, { name: string; type: string; rules: unknown[] }>>;
}

/**
 * Models trained before this change hold their regex rules inside nlp.js's NER (as `/source/flags`
 * strings). Takes them out of the exported nlp.js JSON before nlp.js imports it (its import would
 * build `RegExp`s from them) and returns them as regex entities.
 */
export function takeNlpjsRegexRules(nlpJson: { ner?: NerRules }): RegexEntity[] {
  const taken: RegexEntity[] = [];
  for (const byName of Object.values(nlpJson.ner?.rules ?? {})) {
    for (const [key, rule] of Object.entries(byName)) {
      if (rule.type !== 'regex') continue;
      delete byName[key];
      for (const source of rule.rules) {
        if (typeof source === 'string') taken.push({ name: rule.name, pattern: source.slice(1, source.lastIndexOf('/')) });
      }
    }
  }
  return taken;
}

/**
 * The nlp.js extractor for a model's entities: regex matches from the pattern worker, list matches
 * from `findLists` (list-entities.ts). nlp.js calls it twice per message (to classify with
 * `@entity` and to list entities): the last message's matches are reused.
 */
export function entityExtractor(
  entities: RegexEntity[],
  match: PatternMatcher,
  onError: (error: unknown) => void,
  findLists: (text: string) => NerEdge[],
) {
  const patterns = entities.map((e) => e.pattern);
  let last: { text: string; edges: Promise<NerEdge[]> } | undefined;

  async function find(text: string): Promise<NerEdge[]> {
    if (!text) return [];
    const lists = findLists(text);
    if (entities.length === 0) return lists;
    try {
      const found = await match(patterns, text);
      return [...lists, ...found.flatMap((matches, i) => matches.map((m) => toEdge(entities[i]!.name, m)))];
    } catch (error) {
      // Past the deadline (or the worker died): answer without regex entities rather than not at all.
      // The empty result stays the last one, so nlp.js's second call does not wait out a second deadline.
      onError(error);
      return lists;
    }
  }

  return {
    async extract(input: { text: string }): Promise<{ edges: NerEdge[] }> {
      if (last?.text !== input.text) last = { text: input.text, edges: find(input.text) };
      // Copies: nlp.js marks and mutates the edges it is given.
      return { edges: (await last.edges).map((edge) => ({ ...edge })) };
    },
  };
}

function toEdge(entity: string, m: TenantMatch): NerEdge {
  return { start: m.start, end: m.end - 1, len: m.end - m.start, accuracy: 1, sourceText: m.text, utteranceText: m.text, entity, type: 'regex' };
}
