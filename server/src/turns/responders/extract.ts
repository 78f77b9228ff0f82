/**
 * Extractive answers: the sentences of the retrieved passages that share the most words with the
 * question, in their original order. No generation, so every word of the answer is in a source.
 */

import { NOT_EVIDENCE_ANY } from '../../text/languages.ts';
import { folded, wordMatches, words } from '../../text/words.ts';

const MIN_WORD = 3;

/**
 * Lower-case word stems without accents, words that are no evidence in any language left out (a 5-letter
 * prefix is a crude but language-neutral stemmer: the question's language is not known here).
 */
export function keywords(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of wordMatches(folded(text))) {
    const word = match[0];
    if (word.length < MIN_WORD || NOT_EVIDENCE_ANY.has(word)) continue;
    out.add(word.slice(0, 5));
  }
  return out;
}

export function sentences(text: string): string[] {
  return text
    .replace(/^#+\s*/gm, '') // markdown headings read as plain sentences
    .split(/(?<=[.!?])\s+|\n{2,}|\n(?=[-*•]\s)/)
    .map((s) => s.replace(/^[-*•]\s+/, '').replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 12);
}

/** How many of the question's words `text` holds. */
function overlapOf(text: string, question: ReadonlySet<string>): number {
  const words = keywords(text);
  let overlap = 0;
  for (const w of question) if (words.has(w)) overlap++;
  return overlap;
}

export interface ScoredSentence {
  text: string;
  overlap: number;
  position: number;
}

/** A sentence that asks rather than answers: a question, or the entry's title said again. */
function asks(sentence: string, title: string): boolean {
  return /\?["'”’)\]]*$/.test(sentence) || sameWords(sentence, title);
}

function sameWords(a: string, b: string): boolean {
  const spelled = (text: string) => words(text.toLowerCase()).join(' ');
  return spelled(a) === spelled(b);
}

/** A heading line: markdown `#…`, or a line of its own that asks a question (FAQ pages). */
const HEADING = /^(?:#{1,6}\s+.*|[^\n.!]{3,200}\?)[ \t]*$/gm;

/**
 * The part of `text` under the heading that shares the most words with the question, or all of
 * it when no heading does: in an FAQ page the answer is the text after its question.
 */
function answeringSection(text: string, question: ReadonlySet<string>): string {
  const headings = [...text.matchAll(HEADING)];
  let best: { overlap: number; from: number; to: number } | null = null;
  headings.forEach((heading, i) => {
    const overlap = overlapOf(heading[0], question);
    const from = heading.index + heading[0].length;
    if (overlap > 0 && (!best || overlap > best.overlap)) best = { overlap, from, to: headings[i + 1]?.index ?? text.length };
  });
  const section = best as { from: number; to: number } | null;
  return section ? text.slice(section.from, section.to) : text;
}

/**
 * The sentences of an entry that answer the question: the part under its best-matching heading,
 * without sentences that only ask (a question, the title restated — in an FAQ they share the most
 * words with a paraphrase of the question, yet say nothing), the `max` that overlap the question
 * most. When none overlaps enough and `minOverlap` is 1 (the entry already passed the relevance
 * gate), the first sentences of that part: an FAQ answer starts right after its question.
 */
export function answerSentences(title: string, text: string, question: ReadonlySet<string>, max: number, minOverlap = 1): ScoredSentence[] {
  const section = answeringSection(text, question);
  const written = sentences(section).map((sentence, position) => ({ sentence, position }));
  const answers = written.filter(({ sentence }) => !asks(sentence, title));
  // An entry that says nothing but its title (or one question) still passed the gate: what its
  // owner wrote is the only answer it has, so it is quoted as written rather than refused.
  const answering = answers.length > 0 || minOverlap > 1 ? answers : written;
  const scored = answering.map(({ sentence, position }) => ({ text: sentence, overlap: overlapOf(sentence, question), position }));
  const best = scored
    .filter((s) => s.overlap >= minOverlap)
    .sort((a, b) => b.overlap - a.overlap || a.position - b.position)
    .slice(0, max)
    .sort((a, b) => a.position - b.position);
  if (best.length > 0 || minOverlap > 1) return best;
  return scored.slice(0, max);
}

/** Splits text into word-sized deltas whose concatenation is exactly the text. */
export function wordDeltas(text: string): string[] {
  const parts: string[] = [...(text.match(/\s*\S+/g) ?? [])];
  const joined = parts.join('');
  if (joined.length < text.length) parts.push(text.slice(joined.length)); // trailing whitespace
  return parts.length ? parts : [text];
}
