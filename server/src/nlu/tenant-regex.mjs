// Tenants' entity regexes are untrusted code: they are compiled and matched only here, by RE2
// (the re2js package), never by JavaScript's backtracking RegExp. RE2 matches in time linear in the
// message (no pattern can make it backtrack exponentially, e.g. `(a|a)+$`); patterns it cannot run
// that way (backreferences, lookaround) fail to compile, which the training checks turn into a 400.
//
// Why re2js: a pure-JavaScript port of RE2 (Go's regexp semantics), so a fresh `npm install` on
// Node 20 needs no native build and no download; it is actively released, has no dependencies, and
// translates JavaScript syntax (`\u0041`, `(?<name>…)`) to RE2's. The alternatives: `re2` is a native
// addon whose install downloads a prebuilt binary (or falls back to a slow node-gyp build), and
// `re2-wasm` has had no release since 2021.
//
// Linear is not free: the cost is (program size × message length), and JavaScript runs the NFA at
// roughly 0.1 µs per step. So programs are capped, matches per message are capped, and matching runs
// in a worker thread under a deadline (see engine.ts), never on the event loop.
//
// Plain JavaScript (typed by tenant-regex.d.mts): the pattern worker imports it under plain node too.
import { RE2JS } from 're2js';

/** RE2 instructions a pattern may compile to. Realistic entity patterns need 10–60; bounded repeats expand (`\w{1,100}` is 201). */
export const MAX_PROGRAM_SIZE = 200;

/** Matches looked for per pattern and message: each search may scan to the end of the message. */
export const MAX_MATCHES = 10;

/** Compiles a tenant pattern (JavaScript syntax, matched case-insensitively as before). Throws on syntax RE2 refuses. */
export function compileTenantRegex(source) {
  return RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.CASE_INSENSITIVE);
}

/** Why `source` cannot be an entity pattern, or null when it can. */
export function tenantRegexProblem(source) {
  let regex;
  try {
    regex = compileTenantRegex(source);
  } catch (error) {
    const reason = String(error instanceof Error ? error.message : error).replace(/^error parsing regexp: /, '');
    return `is not supported by the linear-time regex engine (RE2 syntax; no backreferences or lookaround): ${reason}`;
  }
  const size = regex.programSize();
  if (size > MAX_PROGRAM_SIZE) return `is too complex (${size} RE2 instructions, at most ${MAX_PROGRAM_SIZE})`;
  if (regex.matcher('').find()) return 'must not match empty text';
  return null;
}

/**
 * Up to `MAX_MATCHES` non-empty matches of a compiled pattern in `text`, positions in UTF-16 code
 * units (`end` exclusive). As nlp.js did, a pattern with a capture group reports its first group.
 */
export function findTenantMatches(regex, text) {
  const matches = [];
  const matcher = regex.matcher(text);
  const useGroup = regex.groupCount() > 0;
  // Attempts, not matches, are capped: a pattern like `\b` matches empty text at every word.
  for (let attempt = 0; attempt < MAX_MATCHES && matcher.find(); attempt++) {
    let start = matcher.start();
    let end = matcher.end();
    if (useGroup && matcher.start(1) >= 0) {
      start = matcher.start(1);
      end = matcher.end(1);
    }
    if (end > start) matches.push({ start, end, text: text.slice(start, end) });
  }
  return matches;
}
