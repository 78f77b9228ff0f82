/**
 * TF-IDF over the hashed features of features.ts: the vocabulary is the buckets the training
 * examples use (sorted, looked up by binary search: no Map of tens of thousands of entries per
 * loaded model), with sublinear term frequency (1 + ln tf) and smoothed IDF; each family's part of
 * a vector is L2-normalised and weighted.
 */
import { BUCKETS, CHAR, extract, WORD, type RawFeatures } from './features.ts';

export interface Vocabulary {
  /** Sorted buckets kept by the model. */
  buckets: Uint32Array;
  idf: Float32Array;
  /** WORD or CHAR, per kept bucket. */
  family: Uint8Array;
}

export interface SparseVector {
  /** Indices into the vocabulary (ascending). */
  index: Int32Array;
  value: Float32Array;
  /** Share (0–1) of the text's n-grams the vocabulary knows, character n-grams and words alike. */
  known: number;
}

/** Weight of each family after its own L2 normalisation (words carry meaning, characters recall). */
const FAMILY_WEIGHT = [1, 1];

export function findBucket(buckets: Uint32Array, bucket: number): number {
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = buckets[mid]!;
    if (value < bucket) lo = mid + 1;
    else if (value > bucket) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The vocabulary of a set of texts: buckets in at least `minDf` of them. Counted in typed arrays over every bucket. */
export function buildVocabulary(raws: readonly RawFeatures[], minDf: number): Vocabulary {
  const df = new Uint32Array(BUCKETS);
  const families = new Uint8Array(BUCKETS);
  for (const raw of raws) {
    for (let i = 0; i < raw.buckets.length; i++) {
      df[raw.buckets[i]!]!++;
      families[raw.buckets[i]!] = raw.family[i]!;
    }
  }
  let kept = 0;
  for (let b = 0; b < BUCKETS; b++) if (df[b]! >= minDf && df[b]! > 0) kept++;
  const buckets = new Uint32Array(kept);
  const idf = new Float32Array(kept);
  const family = new Uint8Array(kept);
  const n = raws.length;
  for (let b = 0, i = 0; b < BUCKETS; b++) {
    if (df[b]! < minDf || df[b] === 0) continue;
    buckets[i] = b;
    idf[i] = Math.log((1 + n) / (1 + df[b]!)) + 1;
    family[i++] = families[b]!;
  }
  return { buckets, idf, family };
}

/** bucket → vocabulary index (or -1): O(1) lookups while a training vectorises every example. */
export function bucketIndex(vocabulary: Vocabulary): Int32Array {
  const index = new Int32Array(BUCKETS).fill(-1);
  vocabulary.buckets.forEach((bucket, i) => (index[bucket] = i));
  return index;
}

export function vectorize(raw: RawFeatures, vocabulary: Vocabulary, lookup?: Int32Array): SparseVector {
  const index: number[] = [];
  const value: number[] = [];
  const norms = [0, 0];
  let known = 0;
  for (let i = 0; i < raw.buckets.length; i++) {
    const at = lookup ? lookup[raw.buckets[i]!]! : findBucket(vocabulary.buckets, raw.buckets[i]!);
    if (at < 0) continue;
    known++;
    const v = (1 + Math.log(raw.counts[i]!)) * vocabulary.idf[at]!;
    index.push(at);
    value.push(raw.family[i] === WORD ? v : -v); // the sign carries the family until normalised
    norms[raw.family[i]!]! += v * v;
  }
  const scale = [FAMILY_WEIGHT[WORD]! / (Math.sqrt(norms[WORD]!) || 1), FAMILY_WEIGHT[CHAR]! / (Math.sqrt(norms[CHAR]!) || 1)];
  const out = new Float32Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = value[i]! > 0 ? value[i]! * scale[WORD]! : -value[i]! * scale[CHAR]!;
  return { index: Int32Array.from(index), value: out, known: raw.buckets.length ? known / raw.buckets.length : 0 };
}

export const vectorizeText = (text: string, vocabulary: Vocabulary) => vectorize(extract(text), vocabulary);
