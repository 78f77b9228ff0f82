/**
 * Training a classifier from labelled examples, with its calibration and quality report from
 * stratified k-fold cross-validation on the same examples (a bot never sees out-of-scope
 * questions, so its fallback threshold is set from how its own held-out examples score).
 */
import { extract, type RawFeatures } from './features.ts';
import { logits, seededRandom, shuffle, trainLinear, type LinearOptions } from './linear.ts';
import type { Classifier } from './model.ts';
import { calibrate, qualityReport, type HeldOut, type QualityReport } from './quality.ts';
import { bucketIndex, buildVocabulary, vectorize, type SparseVector, type Vocabulary } from './vectorizer.ts';
import { wordClustersOf } from './word-clusters.ts';

export interface Example {
  text: string;
  /** Index into the intents. */
  intent: number;
}

export interface TrainOutput {
  classifier: Classifier;
  quality: QualityReport;
}

/** Tuned once for all bots on CLINC150 val/oos_val (bench/nlu-dev.ts). */
export const SETTINGS = {
  rate: 4,
  l2: 1e-5,
  maxClassShare: 0.5,
  /** Averaged SGD: +0.4 points on val at the same epochs, and a steadier model. */
  averaged: true,
  /** Epochs scale down with the examples: about 45,000 example updates, 3 to 10 epochs. */
  updates: 45_000,
  minEpochs: 3,
  maxEpochs: 10,
  folds: 3,
  /** Cross-validation models learn for this share of the served model's epochs (at least one). */
  cvEpochShare: 0.34,
};

function options(examples: number, seed: number, family: Uint8Array, epochs?: number): LinearOptions {
  const scaled = Math.round(SETTINGS.updates / Math.max(1, examples));
  return {
    epochs: epochs ?? Math.min(SETTINGS.maxEpochs, Math.max(SETTINGS.minEpochs, scaled)),
    rate: SETTINGS.rate,
    l2: SETTINGS.l2,
    seed,
    maxClassShare: SETTINGS.maxClassShare,
    averaged: SETTINGS.averaged,
    prunable: (f) => family[f] === 1,
  };
}

/** A seed from the data itself: the same examples always give the same model. */
function seedOf(examples: readonly Example[]): number {
  let h = 0x811c9dc5;
  for (const e of examples) {
    for (let i = 0; i < e.text.length; i++) h = Math.imul(h ^ e.text.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ e.intent, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The vocabulary and IDF come from all the examples, the fold models included: they use no label,
 * and vectorising once keeps cross-validation within the training budget.
 */
function vectorizeAll(raws: readonly RawFeatures[]) {
  const vocabulary = buildVocabulary(raws, 1);
  const lookup = bucketIndex(vocabulary);
  return { vocabulary, xs: raws.map((raw) => vectorize(raw, vocabulary, lookup)) };
}

/** Stratified folds: each intent's examples dealt round-robin after a seeded shuffle. */
function foldsOf(examples: readonly Example[], folds: number, random: () => number): Int32Array {
  const fold = new Int32Array(examples.length);
  const byIntent = new Map<number, number[]>();
  examples.forEach((e, i) => {
    const list = byIntent.get(e.intent) ?? [];
    list.push(i);
    byIntent.set(e.intent, list);
  });
  let offset = 0;
  for (const list of byIntent.values()) {
    shuffle(list, random).forEach((i, j) => (fold[i] = (j + offset) % folds));
    offset++;
  }
  return fold;
}

/**
 * Every example's held-out logits, from k models each trained without its fold. They only measure,
 * so they learn for a third of the epochs of the model served: the whole stays within the training budget.
 */
function crossValidate(xs: readonly SparseVector[], vocabulary: Vocabulary, labels: Int32Array, examples: readonly Example[], classes: number, seed: number): HeldOut {
  const folds = Math.min(SETTINGS.folds, xs.length);
  const fold = foldsOf(examples, folds, seededRandom(seed ^ 0x9e3779b9));
  const scores = new Float32Array(xs.length * classes);
  const scratch = new Float64Array(classes);
  const epochs = Math.max(1, Math.round(options(xs.length, seed, vocabulary.family).epochs * SETTINGS.cvEpochShare));
  for (let k = 0; k < folds; k++) {
    const inside = Array.from(xs.keys()).filter((i) => fold[i] !== k);
    if (inside.length === 0) continue;
    const xsInside = inside.map((i) => xs[i]!);
    const model = trainLinear(xsInside, Int32Array.from(inside, (i) => labels[i]!), classes, vocabulary.buckets.length, options(inside.length, seed + k + 1, vocabulary.family, epochs));
    for (let i = 0; i < xs.length; i++) if (fold[i] === k) scores.set(logits(model, xs[i]!, scratch), i * classes);
  }
  return { classes, labels, scores, fold, folds };
}

/** What both parts of a training share: the features of every example, derived from the data alone. */
function prepare(examples: readonly Example[], language?: string) {
  const clusters = wordClustersOf(language) ? language : undefined;
  const { vocabulary, xs } = vectorizeAll(examples.map((e) => extract(e.text, wordClustersOf(clusters))));
  return { clusters, vocabulary, xs, seed: seedOf(examples), labels: Int32Array.from(examples, (e) => e.intent) };
}

/** The served model, before calibration. */
export type FittedModel = Omit<Classifier, 'temperature' | 'threshold'>;

/** Its calibration and quality report, from cross-validation. */
export interface Validation {
  temperature: number;
  threshold: number;
  quality: QualityReport;
}

/**
 * A training is two independent parts, each deterministic for the data: the served model, and the
 * cross-validation that calibrates it. The engine runs them on two threads at once when it has two
 * cores; `trainClassifier` runs them one after the other.
 */
export function fitModel(intents: string[], examples: readonly Example[], language?: string, prepared = prepare(examples, language)): FittedModel {
  const { clusters, vocabulary, xs, seed, labels } = prepared;
  const linear = trainLinear(xs, labels, intents.length, vocabulary.buckets.length, options(xs.length, seed, vocabulary.family));
  return { intents, vocabulary, linear, ...(clusters ? { clusters } : {}) };
}

export function validateModel(intents: string[], examples: readonly Example[], language?: string, prepared = prepare(examples, language)): Validation {
  const { vocabulary, xs, seed, labels } = prepared;
  const heldOut = crossValidate(xs, vocabulary, labels, examples, intents.length, seed);
  const { temperature, threshold } = calibrate(heldOut);
  return { temperature, threshold, quality: qualityReport(heldOut, intents, examples, temperature, threshold) };
}

/** `language`: the bot's; its word clusters, if it has them, are features (word-clusters.ts). */
export function trainClassifier(intents: string[], examples: readonly Example[], language?: string): TrainOutput {
  const prepared = prepare(examples, language);
  const { quality, ...calibration } = validateModel(intents, examples, language, prepared);
  return { classifier: { ...fitModel(intents, examples, language, prepared), ...calibration }, quality };
}
