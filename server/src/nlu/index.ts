/**
 * NLU: intent classification + entity extraction for bots and agents: an n-gram TF-IDF + logistic
 * regression classifier (classifier/), calibrated per bot, hidden behind `NluEngine`.
 *
 * Public API (import only from `server/src/nlu/index.ts`):
 *
 * ```ts
 * import { createNluEngine, renderTemplate, resolveThreshold, DEFAULT_THRESHOLD } from '../nlu/index.ts';
 *
 * const nlu = createNluEngine();              // one per process (lives in Deps as `deps.nlu`)
 * const { model, stats } = await nlu.train('en', training);   // runs in a worker thread
 * //   model: JSON-serialisable; store it in `bots.nlu_model` / `agents.nlu_model` with json(model)
 * //   stats: { intents, examples, training_ms }
 * //   throws NluTrainingError (message safe for clients) for unusable training data
 * const parsed = await nlu.parse(model, 'en', 'how much is it', { cacheKey: `${agentId}:${trainedAt}` });
 * //   { intent: 'pricing' | null, score: 0..1 (calibrated probability), threshold, entities: Entity[] }   (no threshold applied)
 * const threshold = resolveThreshold(training, parsed.threshold); // the owner's, else the model's calibrated one
 * nlu.quality(model);                          // the cross-validation report (GET /v1/bots/{id}/quality)
 * nlu.isCurrent(model);                        // false for a model of an older format: retrain it
 * const text = renderTemplate('Install for {framework}', parsed.entities); // fills `{entity}` slots
 * const problems = checkTraining(training);     // [{path:'/intents/0/examples/1', message}] — run before train()
 * // Or all in one (parse + threshold + pick + render), as bots and the chat responder do:
 * const answer = await answerWithIntent(nlu, { read, language: 'en', cacheKey }, text);
 * //   read: () => Promise<{ model, training }>, called only when the cache lacks `cacheKey`: the
 * //   loaded model and its answer data (responses, not examples) are cached together (parseVersion)
 * //   { matched, intent, confidence, entities, text, suggestions }; fallbackResponse(training, lang, seed)
 * await nlu.close();                                       // terminates idle workers
 * ```
 *
 * The JSON Schema of training data is `trainingSchema` in `bots/schema.ts` (reuse it for agents).
 *
 * `parse` runs in-process (well under a millisecond) with an LRU of loaded models keyed by `cacheKey`,
 * bounded by bytes (without a key, the model is loaded on every call). Training never runs on the event loop.
 */
export type { NluEngine, NluEngineInternals, NluParseResult, NluTrainResult, NluTrainStats, ParseOptions } from './engine.ts';
export { createNluEngine, NluTrainingError } from './engine.ts';
export { DEFAULT_THRESHOLD, pickResponse, renderTemplate, resolveThreshold } from './templates.ts';
export type { TrainingProblem } from './training.ts';
export { checkTraining } from './training.ts';
export type { IntentAnswer, TrainedModel } from './answer.ts';
export type { AnswerData, ModelVersion } from './answer-data.ts';
export { answerWithIntent, fallbackResponse } from './answer.ts';
