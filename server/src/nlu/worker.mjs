// Training thread: the classifier's training and cross-validation are CPU-bound (about a second for
// 15,000 examples), so they never run on the service's event loop. Plain JavaScript that loads the
// TypeScript classifier through tsx, so it starts the same under tsx, node and any test runner.
// Protocol (job-worker.ts): in {id, input: {intents, examples, language}}; out {id, ok: true, output: {classifier, quality, trainingMs}} | {id, ok: false, message}.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { trainClassifier } = await tsImport('./classifier/train.ts', import.meta.url);
const { storeClassifier } = await tsImport('./classifier/model.ts', import.meta.url);

parentPort.on('message', ({ id, input }) => {
  try {
    const started = performance.now();
    const { classifier, quality } = trainClassifier(input.intents, input.examples, input.language);
    const output = { classifier: storeClassifier(classifier), quality, trainingMs: Math.round(performance.now() - started) };
    parentPort.postMessage({ id, ok: true, output });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});

// Imports are loaded: job deadlines start from here (see job-worker.ts).
parentPort.postMessage({ ready: true });
