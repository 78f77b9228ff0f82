/**
 * The nlp.js-backed `NluEngine`: training in a worker thread (never on the event loop), parsing
 * in-process over an LRU of loaded models, tenants' entity regexes in another worker thread (RE2,
 * see tenant-regex.mjs). Public surface re-exported by `nlu/index.ts`.
 */
import { containerBootstrap } from '@nlpjs/core';
import { Nlp, type NlpResult } from '@nlpjs/nlp';
import { LangDe } from '@nlpjs/lang-de';
import { LangEn } from '@nlpjs/lang-en';
import { LangEs } from '@nlpjs/lang-es';
import { LangFr } from '@nlpjs/lang-fr';
import type { Entity, TrainingData } from '../../../src/client/types.ts';
import { JobWorker, JobWorkerError } from './job-worker.ts';
import { listMatcher, nlpjsListRules } from './list-entities.ts';
import { entityExtractor, takeNlpjsRegexRules, type PatternMatcher, type RegexEntity } from './regex-entities.ts';
import type { TenantMatch } from './tenant-regex.mjs';
import { toNlpjsUtterance } from './training.ts';
import { contentStems, intentVocabulary, sharesVocabulary, type IntentVocabulary, type Stemmer, type Stopwords } from './vocabulary.ts';

export type NluLanguage = 'en' | 'de' | 'fr' | 'es';
const LANGUAGE_PLUGINS: Record<NluLanguage, unknown> = { en: LangEn, de: LangDe, fr: LangFr, es: LangEs };
const MODEL_FORMAT = 'nlpjs-4';

export interface NluTrainStats {
  intents: number;
  /** Training utterances given to the classifier. */
  examples: number;
  training_ms: number;
}

export interface NluTrainResult {
  /** JSON-serialisable; store it as is (jsonb) and pass it back to `parse`. */
  model: unknown;
  stats: NluTrainStats;
}

export interface NluParseResult {
  /** The best intent, or null when the classifier says "none of them". No threshold applied. */
  intent: string | null;
  /**
   * 0–1 confidence of `intent`. For null: the best real intent's score, or 0 when the message shares
   * no content word with the predicted intent (the out-of-vocabulary guard, see vocabulary.ts).
   */
  score: number;
  entities: Entity[];
}

export interface ParseOptions {
  /** Stable id of this model version (e.g. `${botId}:${trainedAt}`): the loaded model is cached under it. */
  cacheKey?: string;
}

export interface NluEngine {
  train(language: string, training: TrainingData): Promise<NluTrainResult>;
  parse(model: unknown, language: string, text: string, options?: ParseOptions): Promise<NluParseResult>;
  /**
   * Drops every loaded model cached for `ownerId` (keys `${ownerId}:…`), e.g. of a deleted bot or
   * agent, so its model does not stay in memory. Returns how many were dropped.
   */
  forget(ownerId: string): number;
  /** Stops the training and pattern workers; pending trainings reject. */
  close(): Promise<void>;
}

/** Training failed because of the data or the training run itself; `message` is safe to show a client. */
export class NluTrainingError extends Error {
  override name = 'NluTrainingError';
  constructor(
    message: string,
    readonly kind: 'invalid' | 'timeout' | 'crashed',
  ) {
    super(message);
  }
}

export interface NluEngineOptions {
  /** A training run longer than this is stopped (the worker is restarted). Default 120 s. */
  trainingTimeoutMs?: number;
  /**
   * Matching one message against a model's regex entities longer than this is stopped (the pattern
   * worker is restarted) and the message is answered without them. Default 250 ms: on the longest
   * message (8,000 characters) realistic patterns take under 10 ms and the costliest shapes that
   * pass `checkTraining` about 120 ms (bench/entity-regex.ts).
   */
  patternTimeoutMs?: number;
  /**
   * A message whose regex entities have waited this long behind other messages' is answered
   * without them. Default 1 s: however busy one tenant keeps the pattern worker, another tenant's
   * message waits at most this long for it.
   */
  patternQueueMs?: number;
  /** Loaded models kept for parsing. Default 64. */
  cacheSize?: number;
  /** Told when a message's regex entities could not be matched (deadline, worker crash). */
  onPatternError?: (error: unknown) => void;
}

/** Training data in nlp.js terms: what the worker feeds to `addDocument` / `addNerRuleOptionTexts`. */
interface Corpus {
  language: NluLanguage;
  documents: { utterance: string; intent: string }[];
  lists: { name: string; option: string; texts: string[] }[];
}

interface StoredModel {
  format: typeof MODEL_FORMAT;
  language: NluLanguage;
  nlp: object;
  /** Regex entities, matched by us (see regex-entities.ts). Absent in models trained before: theirs are inside `nlp`. */
  regexes?: RegexEntity[];
}

function asLanguage(language: string): NluLanguage {
  if (language in LANGUAGE_PLUGINS) return language as NluLanguage;
  throw new NluTrainingError(`Language "${language}" is not supported (en, de, fr, es).`, 'invalid');
}

function toCorpus(language: NluLanguage, training: TrainingData): Corpus {
  const corpus: Corpus = { language, documents: [], lists: [] };
  for (const entity of training.entities ?? []) {
    if (entity.type !== 'list') continue;
    for (const value of entity.values) {
      corpus.lists.push({ name: entity.name, option: value.value, texts: [value.value, ...(value.synonyms ?? [])] });
    }
  }
  for (const intent of training.intents) {
    for (const example of intent.examples) corpus.documents.push({ utterance: toNlpjsUtterance(example), intent: intent.name });
  }
  return corpus;
}

function isStoredModel(model: unknown): model is StoredModel {
  const m = model as StoredModel | null;
  return !!m && typeof m === 'object' && m.format === MODEL_FORMAT && typeof m.nlp === 'object' && m.language in LANGUAGE_PLUGINS;
}

/** A tiny LRU: Map keeps insertion order, so re-inserting on hit makes the first key the oldest. */
class ModelCache {
  private readonly entries = new Map<string, LoadedModel>();
  constructor(private readonly size: number) {}
  get(key: string): LoadedModel | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: LoadedModel): void {
    this.entries.set(key, value);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }
  deleteOwner(ownerId: string): number {
    let dropped = 0;
    for (const key of this.entries.keys()) {
      if (key.startsWith(`${ownerId}:`)) dropped += Number(this.entries.delete(key));
    }
    return dropped;
  }
}

interface LoadedModel {
  nlp: Nlp;
  language: NluLanguage;
  vocabulary: IntentVocabulary;
  stemmer: Stemmer;
  stopwords: Stopwords | undefined;
}

function loadModel(model: StoredModel, matchPatterns: PatternMatcher, onPatternError: (error: unknown) => void): LoadedModel {
  const container = containerBootstrap() as ReturnType<typeof containerBootstrap> & {
    get(name: string): unknown;
    register(name: string, instance: unknown, isSingleton: boolean): void;
  };
  container.use(LANGUAGE_PLUGINS[model.language]);
  // forceNER: look for entities in every message, not only when some example names one (issue #10).
  const nlp = new Nlp(
    { languages: [model.language], autoSave: false, autoLoad: false, threshold: 0, calculateSentiment: false, forceNER: true, nlu: { log: false } },
    container,
  );
  // A copy: nlp.js's import mutates what it is given, and older models' regex rules must be taken out first.
  const nlpJson = structuredClone(model.nlp) as Parameters<typeof takeNlpjsRegexRules>[0];
  const regexes = [...(model.regexes ?? []), ...takeNlpjsRegexRules(nlpJson)];
  nlp.import(nlpJson);
  // Each model has its own container, so these extractors only ever see this model's entities.
  // nlp.js's own list matching is switched off (see list-entities.ts); ours reports through the same hook.
  const findLists = listMatcher(nlpjsListRules(nlpJson));
  container.register('extract-enum', { run: (input: unknown) => input }, true);
  container.register(`extract-builtin-${model.language}`, entityExtractor(regexes, matchPatterns, onPatternError, findLists), true);
  const domains = (model.nlp as { nluManager?: { domainManagers?: Record<string, { stemDict?: Record<string, { intent: string }> }> } })
    .nluManager?.domainManagers;
  return {
    nlp,
    language: model.language,
    vocabulary: intentVocabulary(domains?.[model.language]?.stemDict),
    stemmer: container.get(`stemmer-${model.language}`) as Stemmer,
    stopwords: container.get(`stopwords-${model.language}`) as Stopwords | undefined,
  };
}

function toParseResult(result: NlpResult, loaded: LoadedModel, text: string): NluParseResult {
  const seen = new Set<string>();
  const entities: Entity[] = [];
  for (const e of result.entities ?? []) {
    const entity = { entity: e.entity, value: e.option ?? e.sourceText, text: e.sourceText };
    const key = `${entity.entity}\u0000${entity.value}\u0000${entity.text}`;
    if (!seen.has(key)) entities.push(entity);
    seen.add(key);
  }
  if (result.intent && result.intent !== 'None') {
    // A mention of an entity the intent's examples name is evidence enough; otherwise some content
    // word must be the intent's own. (Entities are now found in every message, so an entity no
    // example of this intent names is no evidence for it.)
    const named = loaded.vocabulary.entities.get(result.intent);
    const known =
      entities.some((e) => named?.has(e.entity.toLowerCase())) ||
      sharesVocabulary(contentStems(text, loaded.language, loaded.stemmer, loaded.stopwords), loaded.vocabulary.words.get(result.intent));
    return known ? { intent: result.intent, score: result.score, entities } : { intent: null, score: 0, entities };
  }
  const best = (result.classifications ?? []).find((c) => c.intent !== 'None');
  return { intent: null, score: best?.score ?? 0, entities };
}

/** Training failures in the client-safe terms of `NluTrainingError`. */
function trainingError(error: unknown): unknown {
  if (!(error instanceof JobWorkerError)) return error;
  if (error.kind === 'failed') return new NluTrainingError(`Training failed: ${error.message}`, 'invalid');
  if (error.kind === 'timeout') return new NluTrainingError(error.message.replace('The job', 'Training'), 'timeout');
  return new NluTrainingError(`The training worker stopped: ${error.message}`, 'crashed');
}

export function createNluEngine(options: NluEngineOptions = {}): NluEngine {
  const trainer = new JobWorker<Corpus, { model: object; trainingMs: number }>(
    new URL('./worker.mjs', import.meta.url),
    options.trainingTimeoutMs ?? 120_000,
  );
  // Its own thread: a message never waits behind a training run, and a stuck pattern never stops one.
  const patterns = new JobWorker<{ patterns: string[]; text: string }, TenantMatch[][]>(
    new URL('./pattern-worker.mjs', import.meta.url),
    options.patternTimeoutMs ?? 250,
    options.patternQueueMs ?? 1000,
  );
  const matchPatterns: PatternMatcher = (sources, text) => patterns.run({ patterns: sources, text });
  const warmPatterns = (model: StoredModel) => {
    if (model.regexes?.length) patterns.warm();
  };
  const onPatternError = options.onPatternError ?? (() => {});
  const cache = new ModelCache(options.cacheSize ?? 64);

  return {
    async train(language, training) {
      const corpus = toCorpus(asLanguage(language), training);
      if (corpus.documents.length === 0) throw new NluTrainingError('Training needs at least one example.', 'invalid');
      const { model, trainingMs } = await trainer.run(corpus).catch((error: unknown) => Promise.reject(trainingError(error)));
      const regexes = (training.entities ?? []).flatMap((e) => (e.type === 'regex' ? [{ name: e.name, pattern: e.pattern }] : []));
      const stored: StoredModel = { format: MODEL_FORMAT, language: corpus.language, nlp: model, regexes };
      warmPatterns(stored);
      return {
        model: stored,
        stats: { intents: training.intents.length, examples: corpus.documents.length, training_ms: trainingMs },
      };
    },

    async parse(model, _language, text, parseOptions = {}) {
      if (!isStoredModel(model)) throw new Error('Not a model produced by this NLU engine.');
      const key = parseOptions.cacheKey;
      let loaded = key ? cache.get(key) : undefined;
      if (!loaded) {
        warmPatterns(model);
        loaded = loadModel(model, matchPatterns, onPatternError);
        if (key) cache.set(key, loaded);
      }
      // The model's own language wins: a bot whose language changes is retrained anyway.
      const result = await loaded.nlp.process(loaded.language, text);
      return toParseResult(result, loaded, text);
    },

    forget: (ownerId) => cache.deleteOwner(ownerId),
    close: async () => {
      await Promise.all([trainer.close(), patterns.close()]);
    },
  };
}
