/**
 * From a message to an intent answer: parse, apply the threshold, pick and render a response.
 * Shared by bot messages and the chat responder (bots and agents), so both answer alike.
 */
import type { Entity, TrainingData } from '../../../src/client/types.ts';
import type { ModelVersion } from './answer-data.ts';
import type { NluEngine } from './engine.ts';
import { filledSlots, missingSlots, pickResponse, renderTemplate, resolveThreshold } from './templates.ts';

export interface TrainedModel {
  /**
   * Reads the stored model and the training data it was trained on, called only when the NLU cache
   * lacks this version (see `NluEngine.parseVersion`).
   */
  read: () => Promise<ModelVersion>;
  language: string;
  /** Identifies this model version for the parse cache, e.g. `${botId}:${trainedAt}`. */
  cacheKey: string;
}

export interface IntentAnswer {
  /** True when an intent reached the threshold and has a response. */
  matched: boolean;
  intent: string | null;
  confidence: number;
  entities: Entity[];
  /** The rendered response (matched only). */
  text: string | null;
  suggestions: string[];
}

const FALLBACKS: Record<string, string> = {
  en: "Sorry, I didn't understand that. Could you rephrase it?",
  de: 'Entschuldigung, das habe ich nicht verstanden. Kannst du es anders formulieren?',
  fr: "Désolé, je n'ai pas compris. Pouvez-vous reformuler ?",
  es: 'Lo siento, no lo he entendido. ¿Puedes reformularlo?',
};

/** Asks for the entities a response needs (entity names read as words: `order_number` → "order number"). */
const ASK_FOR: Record<string, (names: string) => string> = {
  en: (names) => `Could you tell me the ${names}?`,
  de: (names) => `Kannst du mir noch Folgendes nennen: ${names}?`,
  fr: (names) => `Pouvez-vous me préciser : ${names} ?`,
  es: (names) => `¿Puedes indicarme: ${names}?`,
};

/**
 * The intent's reply: among the responses the message gave every entity for, the ones that use the
 * most of the entities it gave (so "install it in React" gets the React answer, while "install it"
 * gets a variant that needs no framework), then the usual pick (a hash of the message, see
 * `pickResponse`) among those. When every response needs a missing entity: a question for the
 * missing ones of the usual pick. A reply never shows an entity's name where its value belongs.
 */
function respond(responses: readonly string[], seed: string, declared: ReadonlySet<string>, entities: Entity[], language: string): string | undefined {
  const complete = responses.filter((r) => missingSlots(r, declared, entities).length === 0);
  if (complete.length > 0) {
    const used = complete.map((r) => filledSlots(r, entities));
    const most = Math.max(...used);
    return renderTemplate(pickResponse(complete.filter((_, i) => used[i] === most), seed)!, entities);
  }
  const picked = pickResponse(responses, seed);
  if (picked === undefined) return undefined;
  const names = missingSlots(picked, declared, entities).map((name) => name.replaceAll('_', ' ')).join(', ');
  return (ASK_FOR[language] ?? ASK_FOR.en!)(names);
}

/** The training data's fallback response, or a default in the bot's language. */
export function fallbackResponse(training: Pick<TrainingData, 'fallback'> | null | undefined, language: string, seed: string): string {
  return pickResponse(training?.fallback?.responses ?? [], seed) ?? FALLBACKS[language] ?? FALLBACKS.en!;
}

export async function answerWithIntent(nlu: NluEngine, trained: TrainedModel, text: string): Promise<IntentAnswer> {
  const { answers, ...parsed } = await nlu.parseVersion(trained.read, text, trained.cacheKey);
  const intent = parsed.intent ? answers.intents.find((i) => i.name === parsed.intent) : undefined;
  const confident = parsed.score >= resolveThreshold(answers, parsed.threshold);
  const response = intent && confident ? respond(intent.responses, text, new Set(answers.entities), parsed.entities, trained.language) : undefined;
  if (!intent || response === undefined) {
    return { matched: false, intent: null, confidence: parsed.score, entities: parsed.entities, text: null, suggestions: [] };
  }
  return {
    matched: true,
    intent: intent.name,
    confidence: parsed.score,
    entities: parsed.entities,
    text: response,
    suggestions: intent.suggestions ?? [],
  };
}
