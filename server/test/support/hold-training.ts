// Holds the NLU engine's training until the test releases it, so a test can look at a request while
// it is still training instead of hoping a sleep is long enough (on a quiet machine a small model
// trains in a few milliseconds). `trainingStarted` only tells when a training reached the engine,
// for a test that looks at the service while the worker thread really trains.
import type { NluEngine } from '../../src/nlu/index.ts';

export function holdTraining(nlu: NluEngine): { started: Promise<void>; release(): void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { started, restore } = interceptTraining(nlu, () => gate);
  return {
    /** Resolves once a training has reached the engine (and waits there). */
    started,
    release() {
      restore();
      release();
    },
  };
}

/** Resolves once the next training has reached the engine, which then trains as usual. */
export function trainingStarted(nlu: NluEngine): Promise<void> {
  const { started, restore } = interceptTraining(nlu, async () => restore());
  return started;
}

/** Wraps `nlu.train`: each call resolves `started` and awaits `before` first; `restore` unwraps it. */
function interceptTraining(nlu: NluEngine, before: () => Promise<void>): { started: Promise<void>; restore(): void } {
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const train = nlu.train;
  nlu.train = async (...args) => {
    start();
    await before();
    return train.apply(nlu, args);
  };
  return { started, restore: () => (nlu.train = train) };
}
