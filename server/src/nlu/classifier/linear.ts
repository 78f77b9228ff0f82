/**
 * Multinomial logistic regression over sparse TF-IDF vectors, trained by SGD (a few seeded epochs,
 * a decaying step, L2 regularisation applied lazily through a scale factor, optionally the average
 * of the last epoch's iterates). A feature has weights
 * only for the classes it occurs with in training (the "observed features" of maximum-entropy
 * toolkits such as CRFsuite), stored row by row (CSR): scoring and training touch those pairs
 * only, and a model of 150 intents × 100 examples holds about 300,000 weights instead of 9 million.
 * Features that occur with more than `maxClassShare` of the classes (" th", "e ") say little about
 * any one of them and cost the most: they are left out when there are many classes.
 */
import type { SparseVector } from './vectorizer.ts';

export interface LinearModel {
  classes: number;
  /** Row f spans `classIds/weights[rowStart[f] .. rowStart[f + 1]]`. */
  rowStart: Int32Array;
  classIds: Uint16Array;
  weights: Float32Array;
  bias: Float32Array;
}

export interface LinearOptions {
  epochs: number;
  /** Initial step; decays as 1 / (1 + t / examples). */
  rate: number;
  /** L2 strength per example. */
  l2: number;
  seed: number;
  /** Features seen with more than this share of the classes get no weights (when there are 20 classes or more)… */
  maxClassShare: number;
  /** …if they are prunable (character n-grams: words are fewer and say more). */
  prunable?: (feature: number) => boolean;
  /** The served weights are the mean of snapshots over the last epoch (averaged SGD). */
  averaged?: boolean;
}

/** Snapshots averaged over the last epoch. */
const SNAPSHOTS = 10;

/** An example whose right class already has a probability above 1 − SURE teaches nothing more. */
const SURE = 0.01;

/** mulberry32: a small seeded PRNG, so the same data always trains the same model. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Raw class scores (logits) of one vector, into `out`. */
export function logits(model: LinearModel, x: SparseVector, out: Float64Array): Float64Array {
  forward(out, model.bias, model.rowStart, model.classIds, model.weights, x.index, x.value, 1);
  return out;
}

/** Softmax of `scores` at temperature `t`, in place. */
export function softmax(scores: Float64Array, t = 1): Float64Array {
  let max = -Infinity;
  for (const s of scores) max = Math.max(max, s);
  let sum = 0;
  for (let c = 0; c < scores.length; c++) sum += scores[c] = Math.exp((scores[c]! - max) / t);
  for (let c = 0; c < scores.length; c++) scores[c]! /= sum;
  return scores;
}

interface Pairs {
  rowStart: Int32Array;
  classIds: Uint16Array;
}

/** The (feature, class) pairs that get a weight: those seen together in training. */
function observedPairs(xs: readonly SparseVector[], ys: Int32Array, classes: number, features: number, options: LinearOptions): Pairs {
  // Examples grouped by class, and the last class that marked each feature: each pair counted once.
  const byClass = Array.from(xs.keys()).sort((a, b) => ys[a]! - ys[b]! || a - b);
  const mark = new Int32Array(features).fill(-1);
  const count = new Int32Array(features);
  for (const i of byClass) {
    for (const f of xs[i]!.index) {
      if (mark[f] !== ys[i]) count[f]!++;
      mark[f] = ys[i]!;
    }
  }
  const limit = classes >= 20 ? Math.floor(classes * options.maxClassShare) : classes;
  const rowStart = new Int32Array(features + 1);
  for (let f = 0; f < features; f++) {
    const keep = count[f]! <= limit || options.prunable?.(f) === false;
    rowStart[f + 1] = rowStart[f]! + (keep ? count[f]! : 0);
  }
  const classIds = new Uint16Array(rowStart[features]!);
  const filled = rowStart.slice(0, features);
  mark.fill(-1);
  for (const i of byClass) {
    for (const f of xs[i]!.index) {
      if (mark[f] === ys[i]) continue;
      mark[f] = ys[i]!;
      if (filled[f]! < rowStart[f + 1]!) classIds[filled[f]!++] = ys[i]!;
    }
  }
  return { rowStart, classIds };
}

// The two hot loops, each its own small function: V8 optimises them as wholes, not by on-stack replacement.
function forward(p: Float64Array, bias: Float32Array, rowStart: Int32Array, classIds: Uint16Array, weights: Float32Array, index: Int32Array, value: Float32Array, scale: number): void {
  for (let c = 0; c < p.length; c++) p[c] = bias[c]!;
  for (let k = 0; k < index.length; k++) {
    const f = index[k]!;
    const v = value[k]! * scale;
    for (let j = rowStart[f]!, end = rowStart[f + 1]!; j < end; j++) p[classIds[j]!]! += v * weights[j]!;
  }
}

function backward(gradient: Float64Array, rowStart: Int32Array, classIds: Uint16Array, weights: Float32Array, index: Int32Array, value: Float32Array, step: number): void {
  for (let k = 0; k < index.length; k++) {
    const f = index[k]!;
    const v = value[k]! * step;
    for (let j = rowStart[f]!, end = rowStart[f + 1]!; j < end; j++) weights[j]! -= v * gradient[classIds[j]!]!;
  }
}

/** Trains on `xs` over `pairs` (by default the pairs `xs` themselves show). */
export function trainLinear(
  xs: readonly SparseVector[],
  ys: Int32Array,
  classes: number,
  features: number,
  options: LinearOptions,
  pairs = observedPairs(xs, ys, classes, features, options),
): LinearModel {
  const { rowStart, classIds } = pairs;
  const weights = new Float32Array(classIds.length);
  const bias = new Float32Array(classes);
  const random = seededRandom(options.seed);
  const order = shuffle(Array.from(xs.keys()), random);
  const p = new Float64Array(classes);
  // w = scale · v: the L2 decay of every weight is one multiplication of `scale`.
  let scale = 1;
  let t = 0;
  const n = xs.length;
  // Polyak averaging: the mean of snapshots over the last epoch, steadier than the last iterate.
  const sum = options.averaged ? new Float64Array(weights.length + classes) : undefined;
  const every = Math.max(1, Math.floor(n / SNAPSHOTS));
  let snapshots = 0;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    if (epoch > 0) shuffle(order, random);
    const last = epoch === options.epochs - 1;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      if (sum && last && (k + 1) % every === 0) {
        for (let w = 0; w < weights.length; w++) sum[w]! += weights[w]! * scale;
        for (let c = 0; c < classes; c++) sum[weights.length + c]! += bias[c]!;
        snapshots++;
      }
      const rate = options.rate / (1 + t++ / n);
      const { index, value } = xs[i]!;
      forward(p, bias, rowStart, classIds, weights, index, value, scale);
      softmax(p);
      // Already this sure of the right class: the gradient is negligible, the update is skipped.
      if (p[ys[i]!]! > 1 - SURE) continue;
      p[ys[i]!]! -= 1;
      for (let c = 0; c < classes; c++) bias[c]! -= rate * p[c]!;
      scale *= 1 - rate * options.l2;
      backward(p, rowStart, classIds, weights, index, value, rate / scale);
      if (scale < 1e-6) {
        for (let w = 0; w < weights.length; w++) weights[w]! *= scale;
        scale = 1;
      }
    }
  }
  if (scale !== 1) for (let w = 0; w < weights.length; w++) weights[w]! *= scale;
  if (sum && snapshots) {
    for (let w = 0; w < weights.length; w++) weights[w] = sum[w]! / snapshots;
    for (let c = 0; c < classes; c++) bias[c] = sum[weights.length + c]! / snapshots;
  }
  return { classes, rowStart, classIds, weights, bias };
}

