/**
 * Regex entities: tenant patterns run in the pattern worker on RE2 (tenant-regex.mjs), never as a
 * backtracking `RegExp` on the event loop (one `(a|a)+$` would freeze the service), under a
 * deadline; list entities are matched here (list-entities.ts). Both give edges in message offsets.
 */
import type { TenantMatch } from './tenant-regex.mjs';

export interface RegexEntity {
  name: string;
  pattern: string;
}

/** Matches each pattern against a message; `output[i]` belongs to `patterns[i]`. */
export type PatternMatcher = (patterns: string[], text: string) => Promise<TenantMatch[][]>;

/** An entity found in a message (`end` inclusive). */
export interface NerEdge {
  start: number;
  end: number;
  len: number;
  accuracy: number;
  /** The declared text that matched (a list value or synonym), or the matched text of a regex. */
  sourceText: string;
  utteranceText: string;
  entity: string;
  type: 'regex' | 'enum';
  /** A list entity's value. */
  option?: string;
}

/**
 * Finds a model's entities in a message: list matches from `findLists`, regex matches from the
 * pattern worker. Past the worker's deadline (or if it died) the message keeps its list matches.
 */
export function entityFinder(
  entities: RegexEntity[],
  match: PatternMatcher,
  onError: (error: unknown) => void,
  findLists: (text: string) => NerEdge[],
): (text: string) => Promise<NerEdge[]> {
  const patterns = entities.map((e) => e.pattern);
  return async (text) => {
    if (!text) return [];
    const lists = findLists(text);
    if (entities.length === 0) return lists;
    try {
      const found = await match(patterns, text);
      return [...lists, ...found.flatMap((matches, i) => matches.map((m) => toEdge(entities[i]!.name, m)))];
    } catch (error) {
      onError(error);
      return lists;
    }
  };
}

/** Overlapping edges: the longer wins (then the earlier). The rest in message order. */
export function reduceEdges(edges: NerEdge[]): NerEdge[] {
  const kept: NerEdge[] = [];
  for (const edge of [...edges].sort((a, b) => b.len - a.len || a.start - b.start)) {
    if (!kept.some((k) => edge.start <= k.end && k.start <= edge.end)) kept.push(edge);
  }
  return kept.sort((a, b) => a.start - b.start);
}

function toEdge(entity: string, m: TenantMatch): NerEdge {
  return { start: m.start, end: m.end - 1, len: m.end - m.start, accuracy: 1, sourceText: m.text, utteranceText: m.text, entity, type: 'regex' };
}
