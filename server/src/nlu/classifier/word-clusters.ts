/**
 * Word clusters: for a language that has them (English), each of 50,000 frequent words belongs to
 * a cluster of words with similar GloVe vectors at three granularities (data/word-clusters.en.tsv,
 * built by server/scripts/word-clusters.ts; attribution in data/README.md). A word's clusters are
 * features beside the word itself, so an example that says "reimbursement" teaches something about
 * a question that says "refund". Loaded once per process, on first use.
 */
import { readFileSync } from 'node:fs';
import { FUNCTION_WORDS, isLanguage } from '../../text/languages.ts';

/** Cluster ids of a word, one per granularity (coarse to fine). */
export type WordClusters = ReadonlyMap<string, Uint16Array>;

const FILES: Record<string, string> = { en: 'word-clusters.en.tsv' };
const loaded = new Map<string, WordClusters>();

/**
 * One line a word: `word<TAB>id<TAB>id<TAB>id`. Read by hand: 50,000 `split`s cost a third of a
 * second. Function words are left out: their clusters say nothing about an intent, and as features
 * seen with every intent they cost a third of a training (a weight per intent at every use).
 */
function parse(text: string, functionWords: ReadonlySet<string>): WordClusters {
  const clusters = new Map<string, Uint16Array>();
  const levels = text.slice(0, text.indexOf('\n')).split('\t').length - 1;
  // One array for all the ids, each word a view of it: 50,000 small buffers would cost as much again.
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  const ids = new Uint16Array(levels * lines);
  let used = 0;
  for (let at = 0; at < text.length; ) {
    const tab = text.indexOf('\t', at);
    const end = text.indexOf('\n', at);
    if (tab < 0 || end < 0) break;
    const word = text.slice(at, tab);
    if (functionWords.has(word)) {
      at = end + 1;
      continue;
    }
    const start = used;
    let id = 0;
    for (let i = tab + 1; i <= end; i++) {
      const code = text.charCodeAt(i);
      if (code >= 48 && code <= 57) id = id * 10 + code - 48;
      else {
        ids[used++] = id;
        id = 0;
      }
    }
    clusters.set(word, ids.subarray(start, used));
    at = end + 1;
  }
  return clusters;
}

/** The clusters of `language`'s words, or undefined when the language has none. */
export function wordClustersOf(language: string | undefined): WordClusters | undefined {
  const file = language ? FILES[language] : undefined;
  if (!file) return undefined;
  let clusters = loaded.get(file);
  if (!clusters) {
    clusters = parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8'), isLanguage(language!) ? FUNCTION_WORDS[language] : new Set());
    loaded.set(file, clusters);
  }
  return clusters;
}

/** The languages with clusters: a classifier stores which it used, so it scores as it was trained. */
export const CLUSTER_LANGUAGES = Object.keys(FILES);
