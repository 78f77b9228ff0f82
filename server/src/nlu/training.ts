/**
 * Checks of training data that a JSON Schema cannot express: placeholders must name declared
 * entities, intent and entity names must be unique, regex patterns must compile on the linear-time
 * engine that runs them (tenant-regex.mjs) within its size limit.
 * Returns problems as `{path, message}` (JSON pointers relative to the training object).
 */
import type { TrainingData } from '../../../src/client/types.ts';
import { tenantRegexProblem } from './tenant-regex.mjs';

export interface TrainingProblem {
  path: string;
  message: string;
}

export function checkTraining(training: TrainingData): TrainingProblem[] {
  const problems: TrainingProblem[] = [];
  const entityNames = new Set<string>();
  (training.entities ?? []).forEach((entity, i) => {
    if (entityNames.has(entity.name)) problems.push({ path: `/entities/${i}/name`, message: `duplicate entity "${entity.name}"` });
    entityNames.add(entity.name);
    if (entity.type === 'regex') {
      // Here, at create/update, not when a message arrives: a pattern that passes always runs.
      const problem = tenantRegexProblem(entity.pattern);
      if (problem) problems.push({ path: `/entities/${i}/pattern`, message: problem });
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
