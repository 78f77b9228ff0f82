// Training thread: nlp.js training is CPU-bound (seconds for large data), so it never runs on the
// service's event loop. Plain JavaScript so it starts the same under tsx, node and any test runner.
// Protocol (job-worker.ts): in {id, input: corpus}; out {id, ok: true, output: {model, trainingMs}} | {id, ok: false, message}.
// `corpus` is already in nlp.js terms (see engine.ts `toCorpus`): this file only feeds nlp.js.
// Regex entities never reach nlp.js (its extractor runs a backtracking RegExp): see tenant-regex.mjs.
import { parentPort } from 'node:worker_threads';
import { containerBootstrap } from '@nlpjs/core';
import { Nlp } from '@nlpjs/nlp';
import { LangEn } from '@nlpjs/lang-en';
import { LangDe } from '@nlpjs/lang-de';
import { LangFr } from '@nlpjs/lang-fr';
import { LangEs } from '@nlpjs/lang-es';

const LANGUAGES = { en: LangEn, de: LangDe, fr: LangFr, es: LangEs };

async function train(corpus) {
  const started = performance.now();
  const container = containerBootstrap();
  container.use(LANGUAGES[corpus.language]);
  // autoSave/autoLoad off: nlp.js would otherwise write model.nlp into the working directory.
  const nlp = new Nlp(
    { languages: [corpus.language], autoSave: false, autoLoad: false, threshold: 0, calculateSentiment: false, nlu: { log: false } },
    container,
  );
  for (const list of corpus.lists) nlp.addNerRuleOptionTexts(corpus.language, list.name, list.option, list.texts);
  for (const doc of corpus.documents) nlp.addDocument(corpus.language, doc.utterance, doc.intent);
  await nlp.train();
  const model = JSON.parse(nlp.export(true));
  return { model, trainingMs: Math.round(performance.now() - started) };
}

parentPort.on('message', async ({ id, input }) => {
  try {
    parentPort.postMessage({ id, ok: true, output: await train(input) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});

// Imports are loaded: job deadlines start from here (see job-worker.ts).
parentPort.postMessage({ ready: true });
