/**
 * The built-in responder: deterministic and grounded, no model download. In order:
 * 1. the bot's or agent's intent answer, when its confidence reaches the threshold and no
 *    knowledge passage is more likely to answer (`intentAnswers`);
 * 2. an extract of the knowledge passages that answer (their relevance reaches the gate), with citations;
 * 3. an honest fallback that suggests the quick replies.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { answerWithIntent, fallbackResponse, type IntentAnswer, type NluEngine } from '../../nlu/index.ts';
import { answerSentences, keywords, wordDeltas } from './extract.ts';
import type { Responder, ResponderEvent, ResponderInput, ResponderReply } from './responder.ts';
import { sameTextKey } from '../../text/words.ts';
import { retrieve, toCitation, type KnowledgeSearch, type Passage } from './retrieval.ts';

/** Below this BM25 score a passage matched too little of the question to quote it. */
const MIN_KNOWLEDGE_SCORE = 1;
/** Passages scoring less than this share of the best one are left out. */
const RELATIVE_SCORE = 0.4;
const MAX_SENTENCES = 3;

const DONT_KNOW: Record<string, string> = {
  en: "I don't know that yet. Try rephrasing your question, or pick one of the suggestions.",
  de: 'Das weiß ich noch nicht. Formuliere die Frage anders oder wähle einen der Vorschläge.',
  fr: 'Je ne le sais pas encore. Reformulez votre question ou choisissez une suggestion.',
  es: 'Todavía no lo sé. Reformula tu pregunta o elige una de las sugerencias.',
};

/** What the built-in responder says of files it was sent: it reads words only. */
const CANNOT_READ_FILES: Record<string, string> = {
  en: "I can't open attached files or images, so I answered your words only. Describe what it shows and I'll try to help.",
  de: 'Angehängte Dateien und Bilder kann ich nicht öffnen; ich habe nur auf deinen Text geantwortet. Beschreibe, was darauf zu sehen ist.',
  fr: "Je ne peux pas ouvrir les fichiers ni les images joints ; j'ai répondu à votre texte seulement. Décrivez ce qu'ils montrent.",
  es: 'No puedo abrir archivos ni imágenes adjuntos; solo respondí a tu texto. Describe lo que muestran.',
};

export interface BuiltinDeps {
  db: Kysely<Database>;
  nlu: NluEngine;
  knowledge?: KnowledgeSearch;
}

/**
 * Whether the intent answers rather than knowledge. Intents and knowledge compete on one scale:
 * the intent classifier's `confidence` and a passage's `relevance` (knowledge/relevance.ts) both
 * read as the probability that the answer is right, each calibrated on held-out questions. An
 * intent that reached the bot's threshold answers unless the best passage that passed the
 * knowledge gate is more likely right than it.
 */
export function intentAnswers(answer: IntentAnswer | null, passages: Passage[]): answer is IntentAnswer & { text: string } {
  if (!answer?.matched || !answer.text) return false;
  return answer.confidence >= (passages[0]?.hit.relevance ?? 0);
}

/** The knowledge answer, or null when no passage says enough about the question. */
export function composeFromKnowledge(question: string, passages: Passage[]): ResponderReply | null {
  const words = keywords(question);
  const best = passages[0]?.hit.score ?? 0;
  if (words.size === 0 || best < MIN_KNOWLEDGE_SCORE) return null;
  const picked: { passage: Passage; sentences: string[] }[] = [];
  // A sentence two entries share is said (and cited) once, by the better-ranked entry.
  const said = new Set<string>();
  let budget = MAX_SENTENCES;
  for (const passage of passages) {
    if (budget === 0 || passage.hit.score < best * RELATIVE_SCORE) break;
    // Later passages must share more than one word: a single common word ("widget") is not relevance.
    const first = picked.length === 0;
    const chosen = answerSentences(passage.hit.title, passage.content, words, first ? 2 : 1, first ? 1 : Math.min(2, words.size))
      .filter((s) => !said.has(sameTextKey(s.text)))
      .slice(0, budget);
    if (chosen.length === 0) continue;
    for (const s of chosen) said.add(sameTextKey(s.text));
    picked.push({ passage, sentences: chosen.map((s) => s.text) });
    budget -= chosen.length;
  }
  if (picked.length === 0) return null;
  return {
    content: picked.flatMap((p) => p.sentences).join(' '),
    source: 'knowledge',
    intent: null,
    confidence: null,
    citations: picked.map((p) => toCitation(p.passage.hit)),
    suggestions: [],
  };
}

export class BuiltinResponder implements Responder {
  constructor(private readonly deps: BuiltinDeps) {}

  async *respond(input: ResponderInput, signal: AbortSignal): AsyncIterable<ResponderEvent> {
    const reply = await this.reply(input);
    for (const text of wordDeltas(reply.content)) {
      if (signal.aborted) return;
      yield { type: 'delta', text };
    }
    yield { type: 'done', reply };
  }

  /** The reply; with files, it says it cannot read them (and answers only that to files alone). */
  async reply(input: ResponderInput): Promise<ResponderReply> {
    if (!input.attachments?.length) return this.replyToText(input);
    const note = CANNOT_READ_FILES[input.language] ?? CANNOT_READ_FILES.en!;
    if (!input.question.trim()) {
      return { content: note, source: 'fallback', intent: null, confidence: null, citations: [], suggestions: input.quickReplies.slice(0, 3) };
    }
    const reply = await this.replyToText(input);
    return { ...reply, content: `${reply.content}\n\n${note}` };
  }

  private async replyToText(input: ResponderInput): Promise<ResponderReply> {
    const [answer, passages] = await Promise.all([
      input.intents ? answerWithIntent(this.deps.nlu, input.intents, input.question) : null,
      retrieve(this.deps.db, this.deps.knowledge, input.accountId, input.question, { limit: 3, scope: input.knowledge }),
    ]);
    const confidence = answer?.confidence ?? null;
    const entities = answer?.entities;
    if (intentAnswers(answer, passages)) {
      return {
        content: answer.text,
        source: 'intent',
        intent: answer.intent,
        confidence: answer.confidence,
        citations: [],
        suggestions: answer.suggestions,
        entities,
      };
    }
    const fromKnowledge = composeFromKnowledge(input.question, passages);
    if (fromKnowledge) return fromKnowledge;

    const titles = passages.map((p) => p.hit.title).slice(0, 3);
    const hasOwnFallback = (input.training?.fallback?.responses?.length ?? 0) > 0;
    return {
      content: hasOwnFallback
        ? fallbackResponse(input.training, input.language, input.question)
        : (DONT_KNOW[input.language] ?? DONT_KNOW.en!),
      source: 'fallback',
      intent: null,
      confidence,
      citations: [],
      suggestions: titles.length ? titles : input.quickReplies.slice(0, 3),
      entities,
    };
  }
}
