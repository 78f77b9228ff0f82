/**
 * The `NluEngine`: an n-gram TF-IDF + logistic-regression intent classifier (classifier/) trained
 * in a worker thread (never on the event loop), parsing in-process over a byte-bounded LRU of
 * loaded models, list entities matched in-process and tenants' entity regexes in another worker
 * thread (RE2, see tenant-regex.mjs). Public surface re-exported by `nlu/index.ts`.
 */
import { availableParallelism } from 'node:os';
import type { Entity, IntentQuality, TrainingData } from '../../../src/client/types.ts';
import { answerDataOf, type AnswerData, type ModelVersion } from './answer-data.ts';
import { classify, rankIntents, type StoredClassifier } from './classifier/model.ts';
import { JobWorker, JobWorkerError } from './job-worker.ts';
import { entityFinder, reduceEdges, type NerEdge, type PatternMatcher } from './regex-entities.ts';
import {
  isStoredModel,
  listEntities,
  loadModel,
  MODEL_FORMAT,
  ModelCache,
  substituteEdges,
  withAnswers,
  withPlaceholders,
  type LoadedModel,
  type StoredModel,
} from './stored-model.ts';
import type { TenantMatch } from './tenant-regex.mjs';
import { knownToIntent } from './vocabulary.ts';

/** The languages bots and agents accept. The classifier itself needs none of them (character n-grams). */
const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type NluLanguage = (typeof LANGUAGES)[number];

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
  /** The best intent, or null when the message shares no content word with it (see vocabulary.ts). No threshold applied. */
  intent: string | null;
  /**
   * Calibrated probability (0–1) that `intent` is right, were the message one of the bot's topics.
   * For null: 0. Null too, with 0, for a model of an older format (see `isCurrent`).
   */
  score: number;
  /** The model's own fallback threshold, calibrated at training (see classifier/quality.ts). */
  threshold: number;
  entities: Entity[];
  /**
   * The `top` most probable intents, most first, with their calibrated probabilities, when asked
   * (`parseVersion`'s `top`): the model's ranking, before the content-word guard that may make
   * `intent` null.
   */
  ranking?: { intent: string; confidence: number }[];
}

export interface ParseOptions {
  /** Stable id of this model version (e.g. `${botId}:${trainedAt}`): the loaded model is cached under it. */
  cacheKey?: string;
}

export interface NluEngine {
  train(language: string, training: TrainingData): Promise<NluTrainResult>;
  /** False for a model this engine no longer reads (trained before an upgrade): retrain it; `parse` answers it with no intent. */
  isCurrent(model: unknown): boolean;
  /** The cross-validation report computed when the model was trained (null for an older model). */
  quality(model: unknown): IntentQuality | null;
  /** `model`: as `train` gave it, or a function reading it, called only when the cache lacks `options.cacheKey`. */
  parse(model: unknown, language: string, text: string, options?: ParseOptions): Promise<NluParseResult>;
  /**
   * `parse` with an owner's model version `cacheKey`, also giving what answering needs of the
   * training it was trained on (cached with the loaded model): `read` is called only when the
   * cache lacks them, so a turn reads neither the model nor the training examples.
   */
  parseVersion(read: () => Promise<ModelVersion>, text: string, cacheKey: string, top?: number): Promise<NluParseResult & { answers: AnswerData }>;
  /**
   * Drops every loaded model cached for `ownerId` (keys `${ownerId}:…`), e.g. of a deleted bot or
   * agent, so its model does not stay in memory. Returns how many were dropped.
   */
  forget(ownerId: string): number;
  /** Starts the training thread now (a listening server does), so the first training does not wait for it. */
  warm(): void;
  /** Stops the training and pattern workers; pending trainings reject. */
  close(): Promise<void>;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** A model from before an upgrade parses as no intent (the fallback) until its retraining is done. */
const noModel = (): NluParseResult => ({ intent: null, score: 0, threshold: 1, entities: [] });

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
  /** Bytes of loaded models kept for parsing (least recently used dropped first). Default 256 MiB. */
  cacheBytes?: number;
  /** Told when a message's regex entities could not be matched (deadline, worker crash). */
  onPatternError?: (error: unknown) => void;
  /**
   * Training sets of at least this many examples are fitted and cross-validated on two threads at
   * once (with two cores); smaller ones on one thread, where they take a few hundred milliseconds and
   * starting a second thread (about 0.5 s of CPU) would cost more than it saves. Default 1,000.
   */
  splitTrainingAt?: number;
}

interface TrainInput {
  intents: string[];
  examples: { text: string; intent: number }[];
  language: NluLanguage;
  /** Which part of the training a thread does (see classifier/train.ts and worker.mjs). */
  part?: 'model' | 'validation' | 'all';
}

/** A part's output: the classifier (uncalibrated from 'model'), or the calibration and quality report, or both. */
interface TrainOutput {
  classifier?: StoredClassifier;
  calibration?: { temperature: number; threshold: number };
  quality?: IntentQuality;
  trainingMs: number;
}

/** Two threads when there are two cores: the served model and its cross-validation train side by side. */
const TRAINING_THREADS = Math.min(2, availableParallelism());

function asLanguage(language: string): NluLanguage {
  if ((LANGUAGES as readonly string[]).includes(language)) return language as NluLanguage;
  throw new NluTrainingError(`Language "${language}" is not supported (${LANGUAGES.join(', ')}).`, 'invalid');
}

function toTrainInput(training: TrainingData, language: NluLanguage): TrainInput {
  const input: TrainInput = { intents: training.intents.map((i) => i.name), examples: [], language };
  training.intents.forEach((intent, i) => {
    for (const example of intent.examples) input.examples.push({ text: withPlaceholders(example), intent: i });
  });
  return input;
}

/** Entities each intent's examples name as `{entity}`. */
function namedEntities(training: TrainingData): Record<string, string[]> {
  return Object.fromEntries(
    training.intents.map((intent) => [intent.name, [...new Set(intent.examples.flatMap((e) => [...e.matchAll(/\{([A-Za-z0-9_.-]+)\}/g)].map((m) => m[1]!)))]]),
  );
}

function toEntities(edges: readonly NerEdge[]): Entity[] {
  const seen = new Set<string>();
  const entities: Entity[] = [];
  for (const e of edges) {
    const entity = { entity: e.entity, value: e.option ?? e.sourceText, text: e.sourceText };
    const key = `${entity.entity}\u0000${entity.value}\u0000${entity.text}`;
    if (!seen.has(key)) entities.push(entity);
    seen.add(key);
  }
  return entities;
}

/** Training failures in the client-safe terms of `NluTrainingError`. */
function trainingError(error: unknown): unknown {
  if (!(error instanceof JobWorkerError)) return error;
  if (error.kind === 'failed') return new NluTrainingError(`Training failed: ${error.message}`, 'invalid');
  if (error.kind === 'timeout') return new NluTrainingError(error.message.replace('The job', 'Training'), 'timeout');
  return new NluTrainingError(`The training worker stopped: ${error.message}`, 'crashed');
}

/** The engine, with its cache exposed for tests of the memory bound, and its pattern worker for tests of its queue. */
export interface NluEngineInternals extends NluEngine {
  readonly cache: ModelCache;
  readonly patterns: Pick<JobWorker<unknown, unknown>, 'nextStart'>;
}

export function createNluEngine(options: NluEngineOptions = {}): NluEngineInternals {
  const trainers = Array.from({ length: TRAINING_THREADS }, () => new JobWorker<TrainInput, TrainOutput>(new URL('./worker.mjs', import.meta.url), options.trainingTimeoutMs ?? 120_000));
  const splitTrainingAt = options.splitTrainingAt ?? 1_000;
  const runPart = (trainer: JobWorker<TrainInput, TrainOutput>, input: TrainInput) => trainer.run(input).catch((error: unknown) => Promise.reject(trainingError(error)));
  /** The classifier and its quality report, from one thread or from two at once. */
  async function trainParts(input: TrainInput): Promise<{ classifier: StoredClassifier; quality: IntentQuality; trainingMs: number }> {
    const first = trainers[0];
    const second = input.examples.length >= splitTrainingAt ? trainers[1] : undefined;
    const outputs = second
      ? await Promise.all([runPart(first!, { ...input, part: 'model' }), runPart(second, { ...input, part: 'validation' })])
      : [await runPart(first!, { ...input, part: 'all' })];
    const merged = Object.assign({}, ...outputs) as TrainOutput;
    return {
      classifier: { ...merged.classifier!, ...merged.calibration },
      quality: merged.quality!,
      trainingMs: Math.max(...outputs.map((o) => o.trainingMs)),
    };
  }
  // Its own thread: a message never waits behind a training run, and a stuck pattern never stops one.
  const patterns = new JobWorker<{ patterns: string[]; text: string }, TenantMatch[][]>(
    new URL('./pattern-worker.mjs', import.meta.url),
    options.patternTimeoutMs ?? 250,
    options.patternQueueMs ?? 1000,
  );
  const matchPatterns: PatternMatcher = (sources, text) => patterns.run({ patterns: sources, text });
  const warmPatterns = (model: StoredModel) => {
    if (model.regexes.length) patterns.warm();
  };
  const onPatternError = options.onPatternError ?? (() => {});
  const cache = new ModelCache(options.cacheBytes ?? 256 * 1024 * 1024);

  const load = (stored: StoredModel): LoadedModel => {
    warmPatterns(stored);
    return loadModel(stored);
  };

  async function parseLoaded(loaded: LoadedModel, text: string, top = 0): Promise<NluParseResult> {
    const find = entityFinder(loaded.regexes, matchPatterns, onPatternError, loaded.findLists);
    const edges = reduceEdges(await find(text));
    const entities = toEntities(edges);
    const { classifier } = loaded;
    const substituted = substituteEdges(text, edges);
    const result = classify(classifier, substituted);
    const intent = classifier.intents[result.best]!;
    const ranking = top > 0 ? { ranking: rankIntents(classifier, substituted, top).map((r) => ({ intent: classifier.intents[r.intent]!, confidence: round4(r.probability) })) } : {};
    // A mention of an entity the intent's examples name is evidence enough; otherwise some content
    // word must be the intent's own.
    const named = loaded.named.get(intent);
    const known = edges.some((e) => named?.has(e.entity)) || knownToIntent(classifier, loaded.language, text, result.best);
    if (!known) return { intent: null, score: 0, threshold: classifier.threshold, entities, ...ranking };
    return { intent, score: round4(result.probability), threshold: classifier.threshold, entities, ...ranking };
  }

  return {
    cache,
    patterns,
    async train(language, training) {
      const lang = asLanguage(language);
      const input = toTrainInput(training, lang);
      if (input.examples.length === 0) throw new NluTrainingError('Training needs at least one example.', 'invalid');
      const output = await trainParts(input);
      const regexes = (training.entities ?? []).flatMap((e) => (e.type === 'regex' ? [{ name: e.name, pattern: e.pattern }] : []));
      const stored: StoredModel = {
        format: MODEL_FORMAT,
        language: lang,
        classifier: output.classifier,
        lists: listEntities(training),
        regexes,
        named: namedEntities(training),
        quality: output.quality,
      };
      warmPatterns(stored);
      return { model: stored, stats: { intents: training.intents.length, examples: input.examples.length, training_ms: output.trainingMs } };
    },

    isCurrent: (model) => isStoredModel(model),
    quality: (model) => (isStoredModel(model) ? model.quality : null),

    async parse(model, _language, text, parseOptions = {}) {
      const key = parseOptions.cacheKey;
      let loaded = key ? cache.get(key) : undefined;
      if (!loaded) {
        const stored = typeof model === 'function' ? await (model as () => Promise<unknown>)() : model;
        if (!isStoredModel(stored)) return noModel();
        loaded = load(stored);
        if (key) cache.set(key, loaded);
      }
      return parseLoaded(loaded, text);
    },

    async parseVersion(read, text, key, top = 0) {
      let loaded = cache.get(key);
      if (!loaded?.answers) {
        const version = await read();
        const answers = answerDataOf(version.training);
        if (!isStoredModel(version.model)) return { ...noModel(), answers };
        loaded = withAnswers(loaded ?? load(version.model), answers);
        cache.set(key, loaded);
      }
      return { ...(await parseLoaded(loaded, text, top)), answers: loaded.answers! };
    },

    forget: (ownerId) => cache.deleteOwner(ownerId),
    // The thread every training uses; the second starts with the first training large enough to split.
    warm: () => trainers[0]!.warm(),
    close: async () => {
      await Promise.all([...trainers.map((trainer) => trainer.close()), patterns.close()]);
    },
  };
}
