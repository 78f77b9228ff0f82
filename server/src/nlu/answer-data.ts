/**
 * What answering needs of a model version's training data — each intent's responses and
 * suggestions, the declared entities' names, the fallback settings — without the examples, which
 * are nearly all of its bytes (a 15,000-example bot's training is some 700 KB of JSON). Cached with
 * the loaded model (see `NluEngine.parseVersion`), so a turn never reads the examples.
 */
import type { FallbackSettings, Intent, TrainingData } from '../../../src/client/types.ts';

export interface AnswerData {
  intents: Pick<Intent, 'name' | 'responses' | 'suggestions'>[];
  /** Names of the declared entities: a response slot naming one waits for its value. */
  entities: string[];
  fallback?: FallbackSettings;
}

/** A model version as its owner stores it: the model and the training data it was trained on. */
export interface ModelVersion {
  model: unknown;
  training: TrainingData;
}

export function answerDataOf(training: TrainingData): AnswerData {
  return {
    intents: training.intents.map(({ name, responses, suggestions }) => ({ name, responses, ...(suggestions && { suggestions }) })),
    entities: (training.entities ?? []).map((e) => e.name),
    ...(training.fallback && { fallback: training.fallback }),
  };
}

/** Its bytes in memory, counted generously (UTF-16 text plus object overhead). */
export function answerDataBytes(answers: AnswerData): number {
  return 2 * JSON.stringify(answers).length + 64 * answers.intents.length;
}
