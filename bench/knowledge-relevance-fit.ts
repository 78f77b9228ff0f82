/**
 * Calibrates the knowledge relevance (server/src/knowledge/relevance.ts) on the dev half of the
 * banking questions: records each question's top hit's signals, fits a logistic regression
 * (label: the top hit is the entry that answers; out-of-domain questions are all 0), and prints
 * the weights, the score distributions and how dev fares at a few gates. Test is never read.
 *
 *   node --import tsx bench/knowledge-relevance-fit.ts
 */
import type { RelevanceSignals } from '../server/src/knowledge/relevance.ts';
import { relevanceOf } from '../server/src/knowledge/relevance.ts';
import { KnowledgeIndex } from '../server/src/knowledge/search-index.ts';
import { contentOf, FAQ, questionSets } from './lib/banking-questions.ts';

let last: RelevanceSignals[] = [];
const index = new KnowledgeIndex(
  FAQ.map((e) => ({ id: e.key, title: e.title, content: contentOf(e), tags: [], language: 'en', source: null })),
  (signals) => {
    last.push(signals);
    return relevanceOf(signals);
  },
);

interface Sample {
  x: number[];
  y: number;
  kind: 'right' | 'wrong' | 'out';
  score: number;
}

function sample(q: string, expected: string | null): Sample | null {
  last = [];
  const hits = index.search({ q, limit: 3 });
  if (!hits.length) return null;
  const s = last[0] ?? { coverage: 0, evidence: 0, margin: 0 }; // no content word: never called
  const right = expected !== null && hits[0]!.entry_id === expected;
  return { x: [s.coverage, s.evidence, s.margin], y: right ? 1 : 0, kind: expected === null ? 'out' : right ? 'right' : 'wrong', score: hits[0]!.score };
}

const { dev } = questionSets();
const samples = [...dev.inDomain.map(([q, key]) => sample(q, key)), ...dev.outOfDomain.map((q) => sample(q, null))].filter((s): s is Sample => s !== null);
const unanswered = dev.inDomain.length + dev.outOfDomain.length - samples.length;

const quantiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [0.1, 0.25, 0.5, 0.75, 0.9].map((q) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(2)).join(' ');
};
console.log(`dev: ${dev.inDomain.length} in-domain, ${dev.outOfDomain.length} out-of-domain; ${unanswered} without any hit`);
for (const kind of ['right', 'wrong', 'out'] as const) {
  const of = samples.filter((s) => s.kind === kind);
  console.log(`${kind.padEnd(6)} n=${String(of.length).padStart(3)}  bm25 ${quantiles(of.map((s) => s.score))}`);
  ['coverage', 'evidence', 'margin'].forEach((name, i) => console.log(`         ${name.padEnd(9)} ${quantiles(of.map((s) => s.x[i]!))}`));
}

// Logistic regression by gradient descent (three features: plain and small enough).
const w = [0, 0, 0, 0];
const predict = (x: number[]) => 1 / (1 + Math.exp(-(w[0]! + x.reduce((sum, v, i) => sum + v * w[i + 1]!, 0))));
for (let step = 0; step < 20_000; step++) {
  const grad = [0, 0, 0, 0];
  for (const s of samples) {
    const error = predict(s.x) - s.y;
    grad[0]! += error;
    s.x.forEach((v, i) => (grad[i + 1]! += error * v));
  }
  w.forEach((_, i) => (w[i]! -= (2 * grad[i]!) / samples.length));
}
console.log(`\nweights: bias ${w[0]!.toFixed(2)}, coverage ${w[1]!.toFixed(2)}, evidence ${w[2]!.toFixed(2)}, margin ${w[3]!.toFixed(2)}`);

// Calibration: the share of right answers per predicted band.
for (let lo = 0; lo < 1; lo += 0.2) {
  const band = samples.filter((s) => predict(s.x) >= lo && predict(s.x) < lo + 0.2);
  if (band.length) console.log(`  p ${lo.toFixed(1)}–${(lo + 0.2).toFixed(1)}: n=${band.length}, right ${((100 * band.filter((s) => s.y).length) / band.length).toFixed(0)} %`);
}
const inDomain = samples.filter((s) => s.kind !== 'out');
for (const gate of [0.2, 0.25, 0.3, 0.35, 0.4, 0.5]) {
  const right = inDomain.filter((s) => s.y && predict(s.x) >= gate).length / dev.inDomain.length;
  const out = samples.filter((s) => s.kind === 'out');
  const fallback = (dev.outOfDomain.length - out.filter((s) => predict(s.x) >= gate).length) / dev.outOfDomain.length;
  console.log(`gate ${gate}: in-domain right ${(100 * right).toFixed(1)} %, out-of-domain fallback ${(100 * fallback).toFixed(1)} %`);
}
