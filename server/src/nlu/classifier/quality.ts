/**
 * What cross-validation tells about a bot: the softmax temperature that makes its top probability
 * a calibrated one, the fallback threshold, and the owner's quality report (accuracy per intent,
 * the intents most confused with each other, examples that look mislabelled).
 */
import type { IntentQuality } from '../../../../src/client/types.ts';

export interface HeldOut {
  classes: number;
  labels: Int32Array;
  /** examples × classes logits, each from the model that did not see the example. */
  scores: Float32Array;
  fold: Int32Array;
  folds: number;
}

export type QualityReport = IntentQuality;

/**
 * The fallback threshold: this share of the held-out examples the model gets right scores below it.
 * Tuned on CLINC150 val/oos_val (bench/nlu-dev.ts) for out-of-scope recall a few points above 70 %
 * (74 % on oos_val's 100 questions: a margin for a test set that is not these).
 */
export const PASS_SHARE_BELOW = 0.035;
/** Bounds of the threshold whatever the data: a bot of two intents always scores above 0.5. */
const THRESHOLD_RANGE = [0.05, 0.95] as const;
/** Held-out examples used to fit the temperature (a bounded cost for big bots). */
const TEMPERATURE_SAMPLE = 1000;

function topOf(scores: Float32Array, offset: number, classes: number): number {
  let best = 0;
  for (let c = 1; c < classes; c++) if (scores[offset + c]! > scores[offset + best]!) best = c;
  return best;
}

/** Calibrated probability of class `c` of example `i` at temperature `t`. */
function probability(held: HeldOut, i: number, c: number, t: number): number {
  const offset = i * held.classes;
  const max = held.scores[offset + topOf(held.scores, offset, held.classes)]!;
  let sum = 0;
  for (let k = 0; k < held.classes; k++) {
    const d = held.scores[offset + k]! - max;
    // exp(-40) is below a float's precision beside the top class's 1: such a class adds nothing.
    if (d > -40 * t) sum += Math.exp(d / t);
  }
  return Math.exp((held.scores[offset + c]! - max) / t) / sum;
}

function negativeLogLikelihood(held: HeldOut, sample: number[], t: number): number {
  let loss = 0;
  for (const i of sample) loss -= Math.log(Math.max(1e-12, probability(held, i, held.labels[i]!, t)));
  return loss;
}

/**
 * The held-out examples that can say anything about calibration: those whose intent has another
 * example, which the model that held them out learnt from. An intent of one example is unknown to
 * that model, so its example scores near zero at any temperature: fitted on such examples alone (a
 * bot of one example per intent), the temperature would flatten every answer below any threshold.
 */
function informative(held: HeldOut): number[] {
  const counts = new Map<number, number>();
  for (const label of held.labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return Array.from(held.labels.keys()).filter((i) => counts.get(held.labels[i]!)! > 1);
}

/**
 * Temperature by golden-section search of the held-out log-likelihood over [0.05, 20] (log scale);
 * 1 (the model's own scores) when no held-out example is informative.
 */
function fitTemperature(held: HeldOut, usable: number[]): number {
  if (usable.length === 0) return 1;
  const stride = Math.max(1, Math.floor(usable.length / TEMPERATURE_SAMPLE));
  const sample = usable.filter((_, k) => k % stride === 0);
  let lo = Math.log(0.05);
  let hi = Math.log(20);
  const ratio = (Math.sqrt(5) - 1) / 2;
  // 12 steps narrow the range to 0.3 % of its width: a temperature within 2 %, closer than the sample can tell.
  for (let step = 0; step < 12; step++) {
    const a = hi - ratio * (hi - lo);
    const b = lo + ratio * (hi - lo);
    if (negativeLogLikelihood(held, sample, Math.exp(a)) < negativeLogLikelihood(held, sample, Math.exp(b))) hi = b;
    else lo = a;
  }
  return Math.exp((lo + hi) / 2);
}

export function calibrate(held: HeldOut): { temperature: number; threshold: number } {
  const usable = informative(held);
  const temperature = fitTemperature(held, usable);
  const right: number[] = [];
  for (const i of usable) {
    const best = topOf(held.scores, i * held.classes, held.classes);
    if (best === held.labels[i]) right.push(probability(held, i, best, temperature));
  }
  right.sort((a, b) => a - b);
  const quantile = right.length ? right[Math.floor(PASS_SHARE_BELOW * right.length)]! : 0.5;
  const threshold = Math.min(THRESHOLD_RANGE[1], Math.max(THRESHOLD_RANGE[0], quantile));
  return { temperature, threshold: Math.round(threshold * 10_000) / 10_000 };
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const MAX_PAIRS = 10;
const MAX_SUSPECTS = 20;
/** Held out, another intent at least this probable: the example may be under the wrong intent. */
const SUSPECT_PROBABILITY = 0.6;

export function qualityReport(
  held: HeldOut,
  intents: readonly string[],
  examples: readonly { text: string; intent: number }[],
  temperature: number,
  threshold: number,
): QualityReport {
  const perIntent = intents.map(() => ({ examples: 0, correct: 0 }));
  const pairs = new Map<string, { intent: string; predicted: string; count: number }>();
  const suspects: QualityReport['suspect_examples'] = [];
  let correct = 0;
  examples.forEach((example, i) => {
    const best = topOf(held.scores, i * held.classes, held.classes);
    const stats = perIntent[example.intent]!;
    stats.examples++;
    if (best === example.intent) {
      stats.correct++;
      correct++;
      return;
    }
    const key = `${example.intent}\u0000${best}`;
    const pair = pairs.get(key) ?? { intent: intents[example.intent]!, predicted: intents[best]!, count: 0 };
    pair.count++;
    pairs.set(key, pair);
    const confidence = probability(held, i, best, temperature);
    if (confidence >= SUSPECT_PROBABILITY) {
      suspects.push({ intent: intents[example.intent]!, example: example.text, predicted: intents[best]!, confidence: round4(confidence) });
    }
  });
  return {
    folds: held.folds,
    examples: examples.length,
    accuracy: examples.length ? round4(correct / examples.length) : 0,
    threshold,
    intents: intents.map((intent, c) => ({
      intent,
      examples: perIntent[c]!.examples,
      accuracy: perIntent[c]!.examples ? round4(perIntent[c]!.correct / perIntent[c]!.examples) : 0,
    })),
    confused_pairs: [...pairs.values()].sort((a, b) => b.count - a.count || a.intent.localeCompare(b.intent)).slice(0, MAX_PAIRS),
    suspect_examples: suspects.sort((a, b) => b.confidence - a.confidence).slice(0, MAX_SUSPECTS),
  };
}
