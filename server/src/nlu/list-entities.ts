/**
 * List (enum) entities. nlp.js compared every value and synonym with every run of words of the
 * message by edit distance: 449 s on the event loop for a 4,000-character message against a
 * 1,000-value list (within the training limits), and entities are looked for in every message.
 * Here a value matches as whole words, ignoring case and accents, through a word trie: the cost is
 * (words in the message × words in the longest value).
 */
import type { NerEdge } from './regex-entities.ts';

export interface ListEntity {
  name: string;
  values: { option: string; texts: string[] }[];
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Values whose text ends here. */
  hits: { entity: string; option: string; text: string }[];
}

/** Letters, digits and combining marks: a word. Runs of one class only: linear. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

function normalize(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Finds the lists' values in a message: `end` inclusive. */
export function listMatcher(lists: ListEntity[]): (text: string) => NerEdge[] {
  const root: TrieNode = { next: new Map(), hits: [] };
  for (const list of lists) {
    for (const value of list.values) {
      for (const text of value.texts) {
        let node = root;
        for (const [word] of text.matchAll(WORD)) {
          const key = normalize(word);
          let child = node.next.get(key);
          if (!child) node.next.set(key, (child = { next: new Map(), hits: [] }));
          node = child;
        }
        if (node !== root) node.hits.push({ entity: list.name, option: value.option, text });
      }
    }
  }

  return (message) => {
    if (root.next.size === 0) return [];
    const words = [...message.matchAll(WORD)].map((m) => ({ key: normalize(m[0]), start: m.index!, end: m.index! + m[0].length - 1 }));
    const edges: NerEdge[] = [];
    for (let i = 0; i < words.length; i++) {
      let node: TrieNode | undefined = root;
      for (let j = i; j < words.length && node; j++) {
        node = node.next.get(words[j]!.key);
        for (const hit of node?.hits ?? []) {
          const { start } = words[i]!;
          const { end } = words[j]!;
          const utteranceText = message.slice(start, end + 1);
          edges.push({ start, end, len: end - start + 1, accuracy: 1, sourceText: hit.text, utteranceText, entity: hit.entity, type: 'enum', option: hit.option });
        }
      }
    }
    return edges;
  };
}
