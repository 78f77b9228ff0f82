/**
 * Checks of training data that a JSON Schema cannot express: placeholders must name declared
 * entities, intent and entity names must be unique, regex patterns must compile and stay cheap.
 * Returns problems as `{path, message}` (JSON pointers relative to the training object).
 */
import type { TrainingData } from '../../../src/client/types.ts';

export interface TrainingProblem {
  path: string;
  message: string;
}

/** A quantified group that is itself quantified, e.g. `(a+)+`: the classic catastrophic-backtracking shape. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/;

export function checkTraining(training: TrainingData): TrainingProblem[] {
  const problems: TrainingProblem[] = [];
  const entityNames = new Set<string>();
  (training.entities ?? []).forEach((entity, i) => {
    if (entityNames.has(entity.name)) problems.push({ path: `/entities/${i}/name`, message: `duplicate entity "${entity.name}"` });
    entityNames.add(entity.name);
    if (entity.type === 'regex') {
      // Regexes run on every incoming message on the main thread, so refuse shapes that can hang it.
      if (NESTED_QUANTIFIER.test(entity.pattern)) {
        problems.push({ path: `/entities/${i}/pattern`, message: 'nested quantifiers such as (a+)+ are not allowed' });
      } else {
        try {
          new RegExp(entity.pattern, 'gi');
        } catch {
          problems.push({ path: `/entities/${i}/pattern`, message: 'is not a valid regular expression' });
        }
      }
    }
  });
  const intentNames = new Set<string>();
  training.intents.forEach((intent, i) => {
    if (intentNames.has(intent.name)) problems.push({ path: `/intents/${i}/name`, message: `duplicate intent "${intent.name}"` });
    intentNames.add(intent.name);
    intent.examples.forEach((example, j) => {
      for (const [, name] of example.matchAll(/\{([^{}]*)\}/g)) {
        if (!entityNames.has(name!)) {
          problems.push({ path: `/intents/${i}/examples/${j}`, message: `{${name}} is not a declared entity` });
        }
      }
    });
  });
  return problems;
}

/** `{entity}` (our format) → `@entity` (nlp.js). */
export function toNlpjsUtterance(example: string): string {
  return example.replace(/\{([A-Za-z0-9_.-]+)\}/g, '@$1');
}
