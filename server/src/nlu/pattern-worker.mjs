// Entity-regex thread: tenants' patterns run here, never on the service's event loop, and a message
// that keeps this thread busy past its deadline is stopped by terminating it (see job-worker.ts).
// Protocol (job-worker.ts): in {id, input: {patterns, text}}; out {id, ok: true, output} where
// output[i] lists the matches of patterns[i] (empty for a pattern RE2 cannot compile: only models
// trained before patterns were checked can hold one).
import { parentPort } from 'node:worker_threads';
import { compileTenantRegex, findTenantMatches } from './tenant-regex.mjs';

const CACHE_SIZE = 2048;
/** Compiled patterns by source, least recently used first (a Map keeps insertion order). */
const compiled = new Map();

function compile(source) {
  let regex = compiled.get(source);
  if (regex !== undefined) {
    compiled.delete(source);
  } else {
    try {
      regex = compileTenantRegex(source);
    } catch {
      regex = null;
    }
  }
  compiled.set(source, regex);
  if (compiled.size > CACHE_SIZE) compiled.delete(compiled.keys().next().value);
  return regex;
}

parentPort.on('message', ({ id, input }) => {
  try {
    const output = input.patterns.map((source) => {
      const regex = compile(source);
      return regex ? findTenantMatches(regex, input.text) : [];
    });
    parentPort.postMessage({ id, ok: true, output });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});

// Imports are loaded: job deadlines start from here (see job-worker.ts).
parentPort.postMessage({ ready: true });
