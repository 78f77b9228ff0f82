// Training thread: the classifier's training and cross-validation are CPU-bound (seconds for
// 15,000 examples), so they never run on the service's event loop. Plain JavaScript that loads the
// TypeScript classifier through tsx, so it starts the same under tsx, node and any test runner.
// Protocol (job-worker.ts): in {id, input: {intents, examples, language, part}}; out {id, ok: true, output} | {id, ok: false, message}.
// `part` (see classifier/train.ts): 'model' → {classifier} uncalibrated; 'validation' → {calibration, quality}; 'all' → {classifier, quality}.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { fitModel, trainClassifier, validateModel } = await tsImport('./classifier/train.ts', import.meta.url);
const { storeClassifier } = await tsImport('./classifier/model.ts', import.meta.url);
const { CLUSTER_LANGUAGES, wordClustersOf } = await tsImport('./classifier/word-clusters.ts', import.meta.url);
// The word clusters are read now, while the thread is idle, not by the first training.
for (const language of CLUSTER_LANGUAGES) wordClustersOf(language);

function train({ intents, examples, language, part = 'all' }) {
  if (part === 'model') return { classifier: storeClassifier({ ...fitModel(intents, examples, language), temperature: 1, threshold: 0 }) };
  if (part === 'validation') {
    const { quality, ...calibration } = validateModel(intents, examples, language);
    return { calibration, quality };
  }
  const { classifier, quality } = trainClassifier(intents, examples, language);
  return { classifier: storeClassifier(classifier), quality };
}

parentPort.on('message', ({ id, input }) => {
  try {
    const started = performance.now();
    const output = train(input);
    parentPort.postMessage({ id, ok: true, output: { ...output, trainingMs: Math.round(performance.now() - started) } });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});

// Imports are loaded: job deadlines start from here (see job-worker.ts).
parentPort.postMessage({ ready: true });
