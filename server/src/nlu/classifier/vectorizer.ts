/**
 * TF-IDF over the hashed features of features.ts: the vocabulary is the buckets the training
 * examples use (sorted, looked up by binary search: no Map of tens of thousands of entries per
 * loaded model), with sublinear term frequency (1 + ln tf) and smoothed IDF; each family's part of
 * a vector is L2-normalised and weighted.
 */
import { CHAR, WORD, type RawFeatures } from './features.ts';

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

/**
 * bucket → number by open addressing (linear probing), sized to the buckets it holds: a table over
 * all 2²² buckets would be 16 MB of cache misses for the 60,000 or so a training uses.
 */
export class BucketTable {
  /** bucket + 1 per slot (0: empty). */
  private keys = new Uint32Array(1 << 12);
  values = new Int32Array(1 << 12);
  size = 0;

  /** The slot of `bucket`: where it is, or the empty slot where it would go. */
  slot(bucket: number): number {
    const mask = this.keys.length - 1;
    let s = (Math.imul(bucket, 0x9e3779b1) >>> 0) & mask;
    while (this.keys[s] !== 0 && this.keys[s] !== bucket + 1) s = (s + 1) & mask;
    return s;
  }

  get(bucket: number): number {
    const s = this.slot(bucket);
    return this.keys[s] === 0 ? -1 : this.values[s]!;
  }

  /** The slot of `bucket`, added (value 0) if missing; half full at most. */
  add(bucket: number): number {
    let s = this.slot(bucket);
    if (this.keys[s] !== 0) return s;
    if (2 * (this.size + 1) > this.keys.length) {
      const { keys, values } = this;
      this.keys = new Uint32Array(keys.length * 2);
      this.values = new Int32Array(keys.length * 2);
      for (let old = 0; old < keys.length; old++) {
        if (keys[old] === 0) continue;
        const moved = this.slot(keys[old]! - 1);
        this.keys[moved] = keys[old]!;
        this.values[moved] = values[old]!;
      }
      s = this.slot(bucket);
    }
    this.keys[s] = bucket + 1;
    this.size++;
    return s;
  }

  /** The buckets held, ascending. */
  buckets(): Uint32Array {
    const out = new Uint32Array(this.size);
    let at = 0;
    for (const key of this.keys) if (key !== 0) out[at++] = key - 1;
    return out.sort();
  }
}

/** The vocabulary of a set of texts: buckets in at least `minDf` of them. */
export function buildVocabulary(raws: readonly RawFeatures[], minDf: number): Vocabulary {
  const df = new BucketTable();
  for (const raw of raws) {
    for (let i = 0; i < raw.buckets.length; i++) {
      // `add` may grow the table: the slot first, then the values array it belongs to.
      const s = df.add(raw.buckets[i]!);
      // The family rides in the low bit: a bucket's family is that of its last occurrence.
      df.values[s] = (df.values[s]! & ~1) + 2 + raw.family[i]!;
    }
  }
  const all = df.buckets();
  const kept = all.filter((bucket) => df.get(bucket) >> 1 >= Math.max(1, minDf));
  const idf = new Float32Array(kept.length);
  const family = new Uint8Array(kept.length);
  const n = raws.length;
  kept.forEach((bucket, i) => {
    const value = df.get(bucket);
    idf[i] = Math.log((1 + n) / (1 + (value >> 1))) + 1;
    family[i] = value & 1;
  });
  return { buckets: kept, idf, family };
}

/** bucket → vocabulary index: quick lookups while a training vectorises every example. */
export function bucketIndex(vocabulary: Vocabulary): BucketTable {
  const table = new BucketTable();
  vocabulary.buckets.forEach((bucket, i) => {
    const s = table.add(bucket);
    table.values[s] = i;
  });
  return table;
}

/** Scratch of `vectorize`, reused from call to call: a training vectorises thousands of texts. */
let scratch = { index: new Int32Array(1024), value: new Float32Array(1024), family: new Uint8Array(1024) };

export function vectorize(raw: RawFeatures, vocabulary: Vocabulary, lookup?: BucketTable): SparseVector {
  const length = raw.buckets.length;
  if (length > scratch.index.length) scratch = { index: new Int32Array(length), value: new Float32Array(length), family: new Uint8Array(length) };
  const { index, value, family } = scratch;
  let wordNorm = 0;
  let charNorm = 0;
  let known = 0;
  for (let i = 0; i < raw.buckets.length; i++) {
    const at = lookup ? lookup.get(raw.buckets[i]!) : findBucket(vocabulary.buckets, raw.buckets[i]!);
    if (at < 0) continue;
    const v = (1 + Math.log(raw.counts[i]!)) * vocabulary.idf[at]!;
    index[known] = at;
    value[known] = v;
    family[known++] = raw.family[i]!;
    if (raw.family[i] === WORD) wordNorm += v * v;
    else charNorm += v * v;
  }
  const wordScale = FAMILY_WEIGHT[WORD]! / (Math.sqrt(wordNorm) || 1);
  const charScale = FAMILY_WEIGHT[CHAR]! / (Math.sqrt(charNorm) || 1);
  for (let i = 0; i < known; i++) value[i]! *= family[i] === WORD ? wordScale : charScale;
  return { index: index.slice(0, known), value: value.slice(0, known), known: raw.buckets.length ? known / raw.buckets.length : 0 };
}
