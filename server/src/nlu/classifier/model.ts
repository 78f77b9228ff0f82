/**
 * A trained intent classifier: its vocabulary, linear model and calibration, how it scores a
 * message, and its stored form (JSON with base64 typed arrays, as jsonb keeps it).
 */
import { extract } from './features.ts';
import { logits, softmax, type LinearModel } from './linear.ts';
import { vectorize, type SparseVector, type Vocabulary } from './vectorizer.ts';
import { wordClustersOf } from './word-clusters.ts';

export interface Classifier {
  intents: string[];
  vocabulary: Vocabulary;
  linear: LinearModel;
  /** Softmax temperature fitted on held-out examples: the top probability is then calibrated. */
  temperature: number;
  /** Below this calibrated probability a message gets the fallback (see calibration.ts). */
  threshold: number;
  /** The language whose word clusters are features (word-clusters.ts), if any. */
  clusters?: string;
}

export interface Classification {
  /** The best intent (index into `intents`), whatever its probability. */
  best: number;
  /** Its calibrated probability. */
  probability: number;
  /** Share of the message's n-grams the model knows. */
  known: number;
}

/** A message's features as the model was trained on them. */
const featuresOf = (model: Classifier, text: string): SparseVector => vectorize(extract(text, wordClustersOf(model.clusters)), model.vocabulary);

export function classify(model: Classifier, text: string, scratch = new Float64Array(model.intents.length)): Classification {
  const x = featuresOf(model, text);
  const scores = logits(model.linear, x, scratch);
  let best = 0;
  for (let c = 1; c < scores.length; c++) if (scores[c]! > scores[best]!) best = c;
  let sum = 0;
  for (let c = 0; c < scores.length; c++) sum += Math.exp((scores[c]! - scores[best]!) / model.temperature);
  return { best, probability: 1 / sum, known: x.known };
}

/**
 * The `k` most probable intents, most first, with their calibrated probabilities (the first one's
 * is `classify`'s). For the owner's "try it" (`POST /v1/bots/{id}/classify`), not for turns: it
 * scores the message again rather than slow every turn down with a sort.
 */
export function rankIntents(model: Classifier, text: string, k: number): { intent: number; probability: number }[] {
  const scores = new Float64Array(model.intents.length);
  classify(model, text, scores); // leaves the logits in `scores`
  const p = softmax(scores, model.temperature);
  const top = Array.from(p.keys()).sort((a, b) => p[b]! - p[a]! || a - b);
  return top.slice(0, k).map((c) => ({ intent: c, probability: p[c]! }));
}

/** Bytes the loaded classifier holds (typed arrays and intent names): what the model cache counts. */
export function classifierBytes(model: Classifier): number {
  const { vocabulary: v, linear: l } = model;
  const arrays = [v.buckets, v.idf, v.family, l.rowStart, l.classIds, l.weights, l.bias];
  return arrays.reduce((sum, a) => sum + a.byteLength, 0) + model.intents.reduce((sum, name) => sum + 2 * name.length + 32, 0);
}

/** The stored form: typed arrays as base64 (little-endian, as every platform Node runs on). */
export interface StoredClassifier {
  intents: string[];
  temperature: number;
  threshold: number;
  clusters?: string;
  buckets: string;
  idf: string;
  family: string;
  rowStart: string;
  classIds: string;
  weights: string;
  bias: string;
}

const toBase64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

function fromBase64<T>(text: string, make: (buffer: ArrayBuffer) => T): T {
  const bytes = Buffer.from(text, 'base64');
  // A copy into its own aligned buffer: Buffer's pool offset may not be a multiple of 4.
  return make(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

export function storeClassifier(model: Classifier): StoredClassifier {
  const { vocabulary: v, linear: l } = model;
  return {
    intents: model.intents,
    temperature: model.temperature,
    threshold: model.threshold,
    ...(model.clusters ? { clusters: model.clusters } : {}),
    buckets: toBase64(v.buckets),
    idf: toBase64(v.idf),
    family: toBase64(v.family),
    rowStart: toBase64(l.rowStart),
    classIds: toBase64(l.classIds),
    weights: toBase64(l.weights),
    bias: toBase64(l.bias),
  };
}

export function loadClassifier(stored: StoredClassifier): Classifier {
  const linear: LinearModel = {
    classes: stored.intents.length,
    rowStart: fromBase64(stored.rowStart, (b) => new Int32Array(b)),
    classIds: fromBase64(stored.classIds, (b) => new Uint16Array(b)),
    weights: fromBase64(stored.weights, (b) => new Float32Array(b)),
    bias: fromBase64(stored.bias, (b) => new Float32Array(b)),
  };
  const vocabulary: Vocabulary = {
    buckets: fromBase64(stored.buckets, (b) => new Uint32Array(b)),
    idf: fromBase64(stored.idf, (b) => new Float32Array(b)),
    family: fromBase64(stored.family, (b) => new Uint8Array(b)),
  };
  if (linear.bias.length !== linear.classes || linear.rowStart.length !== vocabulary.buckets.length + 1) {
    throw new Error('The stored classifier is inconsistent.');
  }
  const { intents, temperature, threshold, clusters } = stored;
  return { intents, vocabulary, linear, temperature, threshold, ...(clusters ? { clusters } : {}) };
}


