/**
 * How likely a hit is to answer the question, in 0–1, read like a probability: BM25 ranks
 * passages but its score says nothing absolute (a question about the weather still has a best
 * banking passage). Three signals, each in 0–1, combined by a logistic model calibrated on a
 * banking FAQ's dev questions (bench/knowledge-relevance-fit.ts: in-domain paraphrases labelled
 * with their entry, out-of-domain questions from CLINC150), so that `relevance` ≈ the share of
 * hits at that value whose entry really answers:
 * - coverage: the share of the question's content words, weighted by IDF, that the passage or its
 *   title holds (stemmed; a word no entry uses weighs the most, so "bitcoin" is not answered by a
 *   passage about paying);
 * - evidence: how much the passage holds, on a log scale: the IDF of each question word it holds
 *   (more in the title), times the number of such words — as BM25+ multiplies by the terms matched;
 * - margin: how far the hit is ahead of the next other text (a question every entry matches a
 *   little is answered by none).
 * IDFs are counted as if the knowledge had at least `MIN_PASSAGES` passages, so a small knowledge
 * base reads on the same scale as the FAQ the model was calibrated on.
 */

/** One query term with its IDF in the language's index (`LanguagePostings.idf(term, MIN_PASSAGES)`). */
export interface WeightedTerm {
  term: string;
  idf: number;
}

export interface RelevanceSignals {
  coverage: number;
  evidence: number;
  margin: number;
}

export const MIN_PASSAGES = 50;

/**
 * The logistic model's weights, fitted on the dev half of the bench's questions (label: the top
 * hit is the entry that answers). Refit with `node --import tsx bench/knowledge-relevance-fit.ts`
 * after changing the signals.
 */
const WEIGHTS = { bias: -8.96, coverage: 2.27, evidence: 13.66, margin: 3.1 };

/**
 * The default gate: a hit at least this relevant may ground an answer — more likely right than
 * wrong. On dev it sends 98.0 % of out-of-domain questions to the fallback (the goal is 90 %; a
 * lower gate kept less than that on questions it was not tuned on) and answers 64.1 % of in-domain
 * ones from the right entry, of the 73 % the lexical ranking puts first.
 */
export const DEFAULT_MIN_RELEVANCE = 0.5;

/** A question word in the title counts this much besides its count in the text, as the search boosts titles. */
const TITLE_WEIGHT = 2.5;
/** Evidence of e^6 ≈ 400 (say five rare words, some in the title) is all the evidence there is. */
const EVIDENCE_SCALE = 6;
/** What a word found only as a prefix or with a typo counts for (the search weighs such expansions down too). */
const NEAR = 0.5;
/** Words this long may carry one typo and still count as held. */
const TYPO_FROM = 5;

export function relevanceOf(signals: RelevanceSignals): number {
  const z = WEIGHTS.bias + WEIGHTS.coverage * signals.coverage + WEIGHTS.evidence * signals.evidence + WEIGHTS.margin * signals.margin;
  return Math.round(1000 / (1 + Math.exp(-z))) / 1000;
}

/** Coverage and evidence of a passage (`text`: its terms) under `title` (its terms) for `query`. */
export function signalsOf(query: readonly WeightedTerm[], title: ReadonlySet<string>, text: ReadonlySet<string>, margin: number): RelevanceSignals {
  let total = 0;
  let held = 0;
  let weight = 0;
  let count = 0;
  for (const { term, idf } of query) {
    total += idf;
    const inTitle = holds(title, term);
    const inText = holds(text, term);
    if (!inTitle && !inText) continue;
    held += idf * Math.max(inTitle, inText);
    weight += idf * (inTitle * TITLE_WEIGHT + inText);
    count++;
  }
  return {
    coverage: total > 0 ? held / total : 0,
    evidence: Math.min(1, Math.log1p(weight * count) / EVIDENCE_SCALE),
    margin,
  };
}

/** 1 when `term` is in `terms`, `NEAR` when only as the start of a longer word or with one typo, else 0. */
function holds(terms: ReadonlySet<string>, term: string): number {
  if (terms.has(term)) return 1;
  for (const other of terms) {
    if (term.length >= 3 && other.length > term.length && other.startsWith(term)) return NEAR;
    if (term.length >= TYPO_FROM && Math.abs(other.length - term.length) <= 1 && withinOneEdit(term, other)) return NEAR;
  }
  return 0;
}

/** One insertion, deletion or substitution at most. */
function withinOneEdit(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.slice(i) === b.slice(i + 1);
}
