/**
 * Word clusters: for a language that has them (English), each of 50,000 frequent words belongs to
 * a cluster of words with similar GloVe vectors at three granularities (data/word-clusters.en.tsv,
 * built by server/scripts/word-clusters.ts; attribution in data/README.md). A word's clusters are
 * features beside the word itself, so an example that says "reimbursement" teaches something about
 * a question that says "refund". Loaded once per process, on first use.
 */
import { readFileSync } from 'node:fs';

/** Cluster ids of a word, one per granularity (coarse to fine). */
export type WordClusters = ReadonlyMap<string, Uint16Array>;

const FILES: Record<string, string> = { en: 'word-clusters.en.tsv' };
const loaded = new Map<string, WordClusters>();

function parse(text: string): WordClusters {
  const clusters = new Map<string, Uint16Array>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [word, ...ids] = line.split('\t');
    clusters.set(word!, Uint16Array.from(ids, Number));
  }
  return clusters;
}

/** The clusters of `language`'s words, or undefined when the language has none. */
export function wordClustersOf(language: string | undefined): WordClusters | undefined {
  const file = language ? FILES[language] : undefined;
  if (!file) return undefined;
  let clusters = loaded.get(file);
  if (!clusters) {
    clusters = parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8'));
    loaded.set(file, clusters);
  }
  return clusters;
}

/** The languages with clusters: a classifier stores which it used, so it scores as it was trained. */
export const CLUSTER_LANGUAGES = Object.keys(FILES);
