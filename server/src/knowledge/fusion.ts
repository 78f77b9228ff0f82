/**
 * Lexical and semantic hits as one ranking, when embeddings are on (embeddings/semantic.ts).
 *
 * A hit's cosine similarity to the question becomes a semantic relevance, a logistic curve that
 * reads 0.5 at the model's `minSimilarity` (the default gate) and rises steeply past it. Then:
 * - `relevance` is the larger of the lexical and the semantic one: either may say that the entry
 *   answers, and a question that neither finds close (an off-topic one) still reaches no gate;
 * - `score` adds the semantic relevance, `SEMANTIC_SCORE` at most, to the BM25+ score, so an entry
 *   found by meaning alone ranks like a passage matching a few rare words, and ties of words are
 *   broken by meaning.
 */
import type { KnowledgeHit } from '../../../src/client/types.ts';

/** What a semantic relevance of 1 adds to a hit's score (BM25+ scale: a few points per rare word). */
export const SEMANTIC_SCORE = 10;
/** Cosine steps of 0.05 past the midpoint move the relevance from 0.5 to about 0.73. */
const SLOPE = 20;

export function semanticRelevance(similarity: number, minSimilarity: number): number {
  return Math.round(1000 / (1 + Math.exp(-SLOPE * (similarity - minSimilarity)))) / 1000;
}

/**
 * The best `limit` of the lexical hits and the entries found by meaning (`similar`: entry id →
 * cosine), each once, best first. `hitOf` makes the hit of an entry only `similar` holds (null:
 * gone from the index since).
 */
export function fuse(
  lexical: readonly KnowledgeHit[],
  similar: ReadonlyMap<string, number>,
  hitOf: (entryId: string) => KnowledgeHit | null,
  limit: number,
  minSimilarity: number,
): KnowledgeHit[] {
  const hits = new Map(lexical.map((hit) => [hit.entry_id, hit]));
  for (const id of similar.keys()) {
    const hit = hits.has(id) ? null : hitOf(id);
    if (hit) hits.set(id, hit);
  }
  const fused = [...hits.values()].map((hit) => {
    const similarity = similar.get(hit.entry_id);
    if (similarity === undefined) return hit;
    const semantic = semanticRelevance(similarity, minSimilarity);
    return { ...hit, score: Math.round((hit.score + SEMANTIC_SCORE * semantic) * 1000) / 1000, relevance: Math.max(hit.relevance, semantic) };
  });
  fused.sort((a, b) => b.score - a.score || (a.entry_id < b.entry_id ? -1 : a.entry_id > b.entry_id ? 1 : 0));
  return fused.slice(0, limit);
}
