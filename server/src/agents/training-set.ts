/**
 * Turns an agent's examples and training data into the NLU training set plus a held-out test set.
 * Examples that share an output become one intent (their inputs are its utterances, the output its
 * response). The held-out share is chosen by a shuffle seeded from the data itself, so the same
 * agent data always splits the same way (reproducible metrics) — and every intent keeps at least
 * one training utterance, because an intent with none could never be recognised.
 */
import type { AgentExample, Intent, TrainingData } from '../../../src/client/types.ts';

export interface HeldOutExample {
  input: string;
  intent: string;
}

export interface TrainingSet {
  training: TrainingData;
  heldOut: HeldOutExample[];
  /** Intents in `training` (examples' plus the agent's own). */
  intents: number;
}

/** Intent names given to example groups: `example.1`, `example.2`… (skipping names already taken). */
const EXAMPLE_INTENT_PREFIX = 'example.';

export function buildTrainingSet(examples: AgentExample[], own: TrainingData, holdout: number, seed: string): TrainingSet {
  const taken = new Set(own.intents.map((i) => i.name));
  const groups = new Map<string, { name: string; inputs: string[] }>();
  let counter = 0;
  for (const example of examples) {
    let group = groups.get(example.output);
    if (!group) {
      let name: string;
      do name = `${EXAMPLE_INTENT_PREFIX}${++counter}`;
      while (taken.has(name));
      group = { name, inputs: [] };
      groups.set(example.output, group);
    }
    if (!group.inputs.includes(example.input)) group.inputs.push(example.input);
  }

  const candidates = shuffle(
    [...groups.values()].flatMap((g) => g.inputs.map((input) => ({ input, intent: g.name }))),
    seed,
  );
  const wanted = Math.floor(candidates.length * holdout);
  const remaining = new Map([...groups.values()].map((g) => [g.name, g.inputs.length]));
  const heldOut: HeldOutExample[] = [];
  for (const candidate of candidates) {
    if (heldOut.length >= wanted) break;
    if (remaining.get(candidate.intent)! < 2) continue;
    remaining.set(candidate.intent, remaining.get(candidate.intent)! - 1);
    heldOut.push(candidate);
  }
  const heldOutKeys = new Set(heldOut.map((h) => `${h.intent}\u0000${h.input}`));

  const exampleIntents: Intent[] = [...groups.entries()].map(([output, g]) => ({
    name: g.name,
    examples: g.inputs.filter((input) => !heldOutKeys.has(`${g.name}\u0000${input}`)),
    responses: [output],
  }));
  const intents = [...own.intents, ...exampleIntents];
  return {
    training: { ...own, intents },
    heldOut,
    intents: intents.length,
  };
}

/** Fisher–Yates with a small seeded PRNG (mulberry32 over an FNV-1a hash of the seed). */
export function shuffle<T>(items: T[], seed: string): T[] {
  let state = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x01000193);
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
