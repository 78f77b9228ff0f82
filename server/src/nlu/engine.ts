/**
 * The nlp.js-backed `NluEngine`: training in a worker thread (never on the event loop), parsing
 * in-process over an LRU of loaded models. Public surface re-exported by `nlu/index.ts`.
 */
import { Worker } from 'node:worker_threads';
import { containerBootstrap } from '@nlpjs/core';
import { Nlp, type NlpResult } from '@nlpjs/nlp';
import { LangDe } from '@nlpjs/lang-de';
import { LangEn } from '@nlpjs/lang-en';
import { LangEs } from '@nlpjs/lang-es';
import { LangFr } from '@nlpjs/lang-fr';
import type { Entity, TrainingData } from '../../../src/client/types.ts';
import { toNlpjsUtterance } from './training.ts';
import { contentStems, intentVocabulary, sharesVocabulary, type Stemmer, type Stopwords } from './vocabulary.ts';

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
  /** Stops the training worker; pending trainings reject. */
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
  /** Loaded models kept for parsing. Default 64. */
  cacheSize?: number;
}

/** Training data in nlp.js terms: what the worker feeds to `addDocument` / `addNer*`. */
interface Corpus {
  language: NluLanguage;
  documents: { utterance: string; intent: string }[];
  lists: { name: string; option: string; texts: string[] }[];
  regexes: { name: string; source: string }[];
}

interface StoredModel {
  format: typeof MODEL_FORMAT;
  language: NluLanguage;
  nlp: object;
}

function asLanguage(language: string): NluLanguage {
  if (language in LANGUAGE_PLUGINS) return language as NluLanguage;
  throw new NluTrainingError(`Language "${language}" is not supported (en, de, fr, es).`, 'invalid');
}

function toCorpus(language: NluLanguage, training: TrainingData): Corpus {
  const corpus: Corpus = { language, documents: [], lists: [], regexes: [] };
  for (const entity of training.entities ?? []) {
    if (entity.type === 'list') {
      for (const value of entity.values) {
        corpus.lists.push({ name: entity.name, option: value.value, texts: [value.value, ...(value.synonyms ?? [])] });
      }
    } else {
      corpus.regexes.push({ name: entity.name, source: entity.pattern });
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

interface Job {
  id: number;
  corpus: Corpus;
  resolve(value: { model: object; trainingMs: number }): void;
  reject(error: Error): void;
}

/** One training thread, one job at a time (the machine may have 2 cores; the service needs one). */
class TrainingWorker {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private current: { job: Job; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;
  private closed = false;

  constructor(private readonly timeoutMs: number) {}

  run(corpus: Corpus): Promise<{ model: object; trainingMs: number }> {
    if (this.closed) return Promise.reject(new NluTrainingError('The NLU engine is closed.', 'crashed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, corpus, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.queue.splice(0), ...(this.current ? [this.current.job] : [])];
    if (this.current) clearTimeout(this.current.timer);
    this.current = undefined;
    for (const job of pending) job.reject(new NluTrainingError('The NLU engine was closed.', 'crashed'));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./worker.mjs', import.meta.url));
    worker.on('message', (message: { id: number; ok: boolean; model?: object; trainingMs?: number; message?: string }) => {
      const current = this.current;
      if (!current || current.job.id !== message.id) return;
      clearTimeout(current.timer);
      this.current = undefined;
      if (message.ok) current.job.resolve({ model: message.model!, trainingMs: message.trainingMs ?? 0 });
      else current.job.reject(new NluTrainingError(`Training failed: ${message.message ?? 'unknown error'}`, 'invalid'));
      this.pump();
    });
    worker.on('error', (error) => this.fail(new NluTrainingError(`The training worker failed: ${error.message}`, 'crashed')));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.fail(new NluTrainingError('The training worker stopped unexpectedly.', 'crashed'));
    });
    // An idle worker must not keep the process (or a test run) alive; a busy one must (see pump).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private fail(error: NluTrainingError): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = undefined;
    current.job.reject(error);
    this.pump();
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker?.unref();
      return;
    }
    const worker = this.ensureWorker();
    const timer = setTimeout(() => {
      const seconds = Math.round(this.timeoutMs / 1000);
      this.fail(new NluTrainingError(`Training took longer than ${seconds} s and was stopped.`, 'timeout'));
      // Terminating is the only way to stop a CPU-bound run; the next job starts a fresh worker.
      if (this.worker === worker) this.worker = undefined;
      void worker.terminate();
    }, this.timeoutMs);
    timer.unref();
    this.current = { job, timer };
    worker.ref();
    worker.postMessage({ id: job.id, corpus: job.corpus });
  }
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
}

interface LoadedModel {
  nlp: Nlp;
  language: NluLanguage;
  vocabulary: Map<string, Set<string>>;
  stemmer: Stemmer;
  stopwords: Stopwords | undefined;
}

function loadModel(model: StoredModel): LoadedModel {
  const container = containerBootstrap() as ReturnType<typeof containerBootstrap> & { get(name: string): unknown };
  container.use(LANGUAGE_PLUGINS[model.language]);
  const nlp = new Nlp(
    { languages: [model.language], autoSave: false, autoLoad: false, threshold: 0, calculateSentiment: false, nlu: { log: false } },
    container,
  );
  // A string, not the object: nlp.js's import mutates what it is given (regex rules become RegExp).
  nlp.import(JSON.stringify(model.nlp));
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
    // An entity mention is evidence enough; otherwise some content word must be the intent's own.
    const known =
      entities.length > 0 ||
      sharesVocabulary(contentStems(text, loaded.language, loaded.stemmer, loaded.stopwords), loaded.vocabulary.get(result.intent));
    return known ? { intent: result.intent, score: result.score, entities } : { intent: null, score: 0, entities };
  }
  const best = (result.classifications ?? []).find((c) => c.intent !== 'None');
  return { intent: null, score: best?.score ?? 0, entities };
}

export function createNluEngine(options: NluEngineOptions = {}): NluEngine {
  const worker = new TrainingWorker(options.trainingTimeoutMs ?? 120_000);
  const cache = new ModelCache(options.cacheSize ?? 64);

  return {
    async train(language, training) {
      const corpus = toCorpus(asLanguage(language), training);
      if (corpus.documents.length === 0) throw new NluTrainingError('Training needs at least one example.', 'invalid');
      const { model, trainingMs } = await worker.run(corpus);
      const stored: StoredModel = { format: MODEL_FORMAT, language: corpus.language, nlp: model };
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
        loaded = loadModel(model);
        if (key) cache.set(key, loaded);
      }
      // The model's own language wins: a bot whose language changes is retrained anyway.
      const result = await loaded.nlp.process(loaded.language, text);
      return toParseResult(result, loaded, text);
    },

    close: () => worker.close(),
  };
}
