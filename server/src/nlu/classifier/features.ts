/**
 * Text → hashed sparse features, the same for every language: word unigrams and bigrams, and
 * character 3–5-grams inside each word padded with spaces (scikit-learn's `char_wb`), 2–5-grams in
 * scripts written without spaces. Character n-grams need no spaces between words (Japanese,
 * Chinese) and catch inflections without a stemmer (German, Arabic). In a spaced script a
 * character bigram (" t", "th") says little that the longer n-grams do not, and is a quarter of
 * the features: dropping it trains 25 % faster at the same accuracy on CLINC150 val. In a language
 * with word clusters (word-clusters.ts), each word's clusters are word features too. Each n-gram
 * is hashed (FNV-1a, 32 bits) into `BUCKETS`: no vocabulary to ship for features a model never
 * kept, and a fixed range whatever the tenant sends.
 */
import type { WordClusters } from './word-clusters.ts';

export const BUCKETS = 1 << 22;
/** A message longer than this is classified by its first part: the cost of a message is bounded. */
export const MAX_CHARS = 1000;

/** Feature families: each is L2-normalised on its own, then weighted, so none drowns the other. */
export const WORD = 0;
export const CHAR = 1;

export interface RawFeatures {
  /** Bucket of each distinct n-gram. */
  buckets: Uint32Array;
  /** Its count in the text. */
  counts: Float32Array;
  /** Its family (WORD or CHAR). */
  family: Uint8Array;
}

/** Latin accents and Arabic short-vowel marks are optional in writing: dropped. Others (kana voicing) are kept. */
const OPTIONAL_MARKS = /[\u0300-\u036f\u064b-\u065f\u0670]/g;
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;
/** Scripts written without spaces between words, where a word is often two characters. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

export function tokenize(text: string): string[] {
  const normal = text.slice(0, MAX_CHARS).normalize('NFKD').replace(OPTIONAL_MARKS, '').normalize('NFC').toLowerCase();
  return normal.match(TOKEN) ?? [];
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashRange(seed: number, text: string, start: number, end: number): number {
  let h = seed;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Distinct seeds keep a word "ab" and the character bigram "ab" apart. */
const SEED_WORD = FNV_OFFSET;
const SEED_BIGRAM = hashRange(FNV_OFFSET, 'bigram', 0, 6);
const SEED_CHAR = hashRange(FNV_OFFSET, 'char', 0, 4);
const SEED_CLUSTER = hashRange(FNV_OFFSET, 'cluster', 0, 7);

/** The bucket of a word unigram (a token of `tokenize`). */
export const wordBucket = (token: string) => hashRange(SEED_WORD, token, 0, token.length) & (BUCKETS - 1);

/** Keys of the text being extracted, reused from call to call (grown when a text needs more). */
let keys = new Float64Array(4096);

function push(at: number, key: number): number {
  if (at === keys.length) {
    const grown = new Float64Array(keys.length * 2);
    grown.set(keys);
    keys = grown;
  }
  keys[at] = key;
  return at + 1;
}

/** The bucket of cluster `id` at granularity `level` (word-clusters.ts): a word-family feature. */
const clusterBucket = (level: number, id: number) => (Math.imul(Math.imul(SEED_CLUSTER ^ level, FNV_PRIME) ^ id, FNV_PRIME) >>> 0) & (BUCKETS - 1);

/** `clusters`: the word clusters of the bot's language, if it has them (word-clusters.ts). */
export function extract(text: string, clusters?: WordClusters): RawFeatures {
  const tokens = tokenize(text);
  // Each n-gram as bucket * 2 + family in one number: sorting groups the repeats, no Map needed.
  let length = 0;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    length = push(length, wordBucket(token) * 2 + WORD);
    const ids = clusters?.get(token);
    if (ids) for (let level = 0; level < ids.length; level++) length = push(length, clusterBucket(level, ids[level]!) * 2 + WORD);
    if (t > 0) {
      const previous = tokens[t - 1]!;
      length = push(length, (hashRange(hashRange(SEED_BIGRAM, previous, 0, previous.length) ^ 0x20, token, 0, token.length) & (BUCKETS - 1)) * 2 + WORD);
    }
    const padded = ` ${token} `;
    const shortest = UNSPACED.test(token) ? 2 : 3;
    // FNV-1a extends one character at a time: the n-grams starting at i share their prefix hash.
    for (let i = 0; i + shortest <= padded.length; i++) {
      let h = Math.imul(SEED_CHAR ^ padded.charCodeAt(i), FNV_PRIME);
      for (let end = i + 1; end < i + 5 && end < padded.length; end++) {
        h = Math.imul(h ^ padded.charCodeAt(end), FNV_PRIME);
        if (end + 1 - i >= shortest) length = push(length, ((h >>> 0) & (BUCKETS - 1)) * 2 + CHAR);
      }
    }
  }
  const sorted = keys.subarray(0, length).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const result: RawFeatures = { buckets: new Uint32Array(distinct), counts: new Float32Array(distinct), family: new Uint8Array(distinct) };
  let at = -1;
  for (let i = 0; i < sorted.length; i++) {
    const key = sorted[i]!;
    const bucket = Math.floor(key / 2);
    // Two families in one bucket (a collision): counted as one feature of the first family.
    if (at >= 0 && result.buckets[at] === bucket) {
      result.counts[at]!++;
      continue;
    }
    at++;
    result.buckets[at] = bucket;
    result.counts[at] = 1;
    result.family[at] = key % 2;
  }
  return at + 1 === distinct ? result : { buckets: result.buckets.slice(0, at + 1), counts: result.counts.slice(0, at + 1), family: result.family.slice(0, at + 1) };
}
