/** Response templates and the confidence threshold. */
import type { Entity, TrainingData } from '../../../src/client/types.ts';

/** Minimum confidence to answer with an intent when neither the training data nor the model sets one. */
export const DEFAULT_THRESHOLD = 0.65;

/** The owner's threshold if set, else the model's calibrated one (see classifier/quality.ts). */
export function resolveThreshold(training: Pick<TrainingData, 'fallback'> | null | undefined, calibrated?: number): number {
  const value = training?.fallback?.threshold;
  if (typeof value === 'number' && value >= 0 && value <= 1) return value;
  return calibrated ?? DEFAULT_THRESHOLD;
}

const SLOT = /\{([A-Za-z0-9_.-]{1,64})\}/g;

/**
 * Fills `{entity}` slots with the matched entity's value. A slot with no matching entity keeps a
 * readable fallback: the entity name without braces, so a reply never shows raw template syntax.
 * Answers never rely on that fallback for a declared entity: see `missingSlots` and answer.ts.
 */
export function renderTemplate(template: string, entities: readonly Entity[]): string {
  return template.replace(SLOT, (_, name: string) => {
    const match = entities.find((e) => e.entity === name);
    return match ? match.value : name.replaceAll('_', ' ');
  });
}

/** The declared entities a template names as `{entity}` that `entities` has no value for, in order. */
export function missingSlots(template: string, declared: ReadonlySet<string>, entities: readonly Entity[]): string[] {
  const missing = new Set<string>();
  for (const [, name] of template.matchAll(SLOT)) {
    if (declared.has(name!) && !entities.some((e) => e.entity === name)) missing.add(name!);
  }
  return [...missing];
}

/** How many distinct `{entity}` slots of a template `entities` has a value for. */
export function filledSlots(template: string, entities: readonly Entity[]): number {
  const filled = new Set<string>();
  for (const [, name] of template.matchAll(SLOT)) if (entities.some((e) => e.entity === name)) filled.add(name!);
  return filled.size;
}

/**
 * Picks one response. Deterministic by default (a hash of the seed text) so tests and replays see
 * the same answer for the same input, while different inputs still get varied responses.
 */
export function pickResponse(responses: readonly string[], seed: string): string | undefined {
  if (responses.length === 0) return undefined;
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) | 0;
  return responses[Math.abs(hash) % responses.length];
}
