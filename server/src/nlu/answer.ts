/**
 * From a message to an intent answer: parse, apply the threshold, pick and render a response.
 * Shared by bot messages and the chat responder (bots and agents), so both answer alike.
 */
import type { Entity, TrainingData } from '../../../src/client/types.ts';
import type { NluEngine } from './engine.ts';
import { pickResponse, renderTemplate, resolveThreshold } from './templates.ts';

export interface TrainedModel {
  model: unknown;
  training: TrainingData;
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

/** The training data's fallback response, or a default in the bot's language. */
export function fallbackResponse(training: TrainingData | null | undefined, language: string, seed: string): string {
  return pickResponse(training?.fallback?.responses ?? [], seed) ?? FALLBACKS[language] ?? FALLBACKS.en!;
}

export async function answerWithIntent(nlu: NluEngine, trained: TrainedModel, text: string): Promise<IntentAnswer> {
  const parsed = await nlu.parse(trained.model, trained.language, text, { cacheKey: trained.cacheKey });
  const intent = parsed.intent ? trained.training.intents.find((i) => i.name === parsed.intent) : undefined;
  const confident = parsed.score >= resolveThreshold(trained.training);
  const response = intent && confident ? pickResponse(intent.responses, text) : undefined;
  if (!intent || !response) {
    return { matched: false, intent: null, confidence: parsed.score, entities: parsed.entities, text: null, suggestions: [] };
  }
  return {
    matched: true,
    intent: intent.name,
    confidence: parsed.score,
    entities: parsed.entities,
    text: renderTemplate(response, parsed.entities),
    suggestions: intent.suggestions ?? [],
  };
}
