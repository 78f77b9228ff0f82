/**
 * What matching one message against a tenant's entity regex costs on RE2 (re2js), the engine the
 * service runs them on (server/src/nlu/tenant-regex.mjs): realistic patterns, the ReDoS shapes
 * that backtracking engines choke on, and the costliest shapes the training checks still accept
 * (close to 200 RE2 instructions), on messages up to the chat endpoint's 8,000 characters. These
 * numbers are why the pattern worker's deadline is 250 ms and why bigger programs are refused.
 *
 *   node --import tsx bench/entity-regex.ts
 */
import { compileTenantRegex, findTenantMatches, tenantRegexProblem } from '../server/src/nlu/tenant-regex.mjs';

const PATTERNS = [
  'ORD-\\d{6}',
  '#?\\d{6}',
  '[\\w.+-]+@[\\w-]+\\.[\\w.]+',
  '\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){3,7}\\b',
  '(a|a)+$',
  '((a)+)+$',
  '(x+x+)+y',
  '[^!](?:.){0,40}$',
  '[a-z]{2,50}\\d{1,45}',
  '(\\w+\\s?){1,28}!',
];
const LENGTHS = [28, 1000, 4000, 8000];
const TEXTS: Record<string, (n: number) => string> = {
  'a…!': (n) => `${'a'.repeat(n - 1)}!`,
  words: (n) => 'lorem ipsum dolor '.repeat(Math.ceil(n / 18)).slice(0, n),
};

function median(work: () => void, runs = 7): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[runs >> 1]!;
}

console.log(`| pattern | RE2 instructions | text | ${LENGTHS.map((n) => `${n} chars`).join(' | ')} |`);
console.log(`| --- | --- | --- | ${LENGTHS.map(() => '---').join(' | ')} |`);
for (const source of PATTERNS) {
  const problem = tenantRegexProblem(source);
  if (problem) throw new Error(`${source} ${problem}`);
  const regex = compileTenantRegex(source);
  for (const [name, text] of Object.entries(TEXTS)) {
    const cells = LENGTHS.map((n) => {
      const message = text(n);
      findTenantMatches(regex, message); // warm-up
      return `${median(() => findTenantMatches(regex, message)).toFixed(2)} ms`;
    });
    console.log(`| \`${source}\` | ${regex.programSize()} | ${name} | ${cells.join(' | ')} |`);
  }
}
