// Holds the NLU engine's training until the test releases it, so a test can look at a request while
// it is still training instead of hoping a sleep is long enough (on a quiet machine a small model
// trains in a few milliseconds).
import type { NluEngine } from '../../src/nlu/index.ts';

export function holdTraining(nlu: NluEngine): { started: Promise<void>; release(): void } {
  let release!: () => void;
  let start!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (start = resolve));
  const train = nlu.train;
  nlu.train = async (...args) => {
    start();
    await gate;
    return train.apply(nlu, args);
  };
  return {
    /** Resolves once a training has reached the engine (and waits there). */
    started,
    release() {
      nlu.train = train;
      release();
    },
  };
}
