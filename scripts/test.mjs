// `npm test`: type check, import rules, build (with the size budget), the server's Node tests (bundled:
// bundle-node-tests.mjs) and the package's, then the browser tests in Debian chromium. With
// AI_CHAT_TEST_DATABASE_URL (and optionally AI_CHAT_TEST_REDIS_URL) set, the server's tests run once
// more against that real PostgreSQL (and Redis), beside the browser tests.
// Prints each step's time, then one closing line, `N passed, N failed`, summed over every run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleNodeTests } from './bundle-node-tests.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/**
 * Files that take tens of seconds each (builds, packing, the bench's smoke run, kill -9 restarts):
 * they start first, so the run does not end with one of them alone on one of the two cores.
 * Only an order: a file missing here merely starts in its alphabetical turn.
 */
const SLOWEST_FIRST = [
  'test/node/bench-smoke.test.ts', 'test/node/reproducible-build.test.ts', 'server/test/durability.test.ts',
  'test/node/pack.test.ts', 'test/node/screenshots.test.ts', 'server/test/fuzz.test.ts',
  'test/security/service/signin.test.ts', 'server/test/dashboard-auth.test.ts', 'test/node/doc-snippets.test.ts',
  'server/test/dashboard-team.test.ts',
];

/**
 * PGlite's WebAssembly (embedded PostgreSQL) compiled by V8's baseline compiler only. By default V8
 * also recompiles its hot functions with the optimizing compiler on background threads, about 3 CPU-s
 * in every test process, which a test file of a few seconds never earns back: ten typical server test
 * files, two at a time, took 108-117 CPU-s and 57-67 s instead of 153-155 CPU-s and 86-88 s; the
 * longest files (durability, fuzz) took about as long either way. The production server, a long-lived
 * process, keeps V8's default. node:test passes the flag on to each file's process.
 */
const WASM_BASELINE_ONLY = ['--liftoff-only'];

/** Variables that point the server's tests at a real PostgreSQL / Redis (server/test/support/test-database.ts). */
const TEST_SERVER_VARS = ['AI_CHAT_TEST_DATABASE_URL', 'AI_CHAT_TEST_REDIS_URL'];
/** The environment without them: the first run always covers embedded PGlite and in-process counters. */
const embeddedEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !TEST_SERVER_VARS.includes(name)));

/**
 * Runs a command with inherited stdio, or with its output captured (`capture`): teed as it comes, or
 * only kept (`quiet`), for a command running alongside another whose output it must not interleave.
 */
function run(cmd, args, { capture = false, quiet = false, cwd, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (capture) {
      child.stdout.on('data', (d) => { out += d; if (!quiet) process.stdout.write(d); });
      child.stderr.on('data', (d) => { out += d; if (!quiet) process.stderr.write(d); });
    }
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const started = performance.now();
/** Each step's wall-clock seconds, printed at the end: CI must stay under 15 minutes on 2 cores. */
const times = [];

function step(title) {
  console.log(`\n=== ${title} (t=${Math.round((performance.now() - started) / 1000)}s)`);
}

/** Awaits `work`, recording how long it took under `name`. */
async function timed(name, work) {
  const t0 = performance.now();
  try {
    return await work;
  } finally {
    times.push(`${name} ${Math.round((performance.now() - t0) / 1000)} s`);
  }
}

const totals = { passed: 0, failed: 0 };
let failedStep = null;
/** Each failed test as `file › name — first line of its error`, repeated at the very end (CI shows the tail). */
const failures = [];
const plainText = (text) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

/** web-test-runner's report: a `file.test.ts:` line, then ` ❌ suite > name` and its error below. */
function browserFailures(out) {
  const lines = plainText(out).split('\n');
  let file = '';
  lines.forEach((line, i) => {
    const header = /([\w./@-]+\.test\.\w+):$/.exec(line.trim());
    if (header) file = header[1];
    const failed = /❌\s*(.+)$/.exec(line);
    if (failed) failures.push(`${file} › ${failed[1].trim()} — ${(lines[i + 1] ?? '').trim()}`);
  });
}

/** node:test's spec reporter (its output without colours) ends with `✖ failing tests:`, each as `test at file:line`, `✖ name`, error. */
function nodeFailures(text) {
  const at = text.lastIndexOf('✖ failing tests:');
  if (at < 0) return;
  const lines = text.slice(at).split('\n');
  lines.forEach((line, i) => {
    const where = /^test at (\S+)/.exec(line);
    if (where) failures.push(`${where[1]} › ${(lines[i + 1] ?? '').replace(/^✖\s*/, '').trim()} — ${(lines[i + 2] ?? '').trim()}`);
  });
}

step('type check');
if ((await timed('type check', run(npm, ['run', '--silent', 'typecheck']))).code !== 0) failedStep ??= 'type check';

step('import rules (dependency-cruiser: no circle, imports point down)');
if ((await timed('import rules', run(npm, ['run', '--silent', 'check:deps']))).code !== 0) failedStep ??= 'import rules';

step('build');
if (!failedStep && (await timed('build', run(npm, ['run', '--silent', 'build']))).code !== 0) failedStep ??= 'build';

/** The server's test files, run from bundles (bundle-node-tests.mjs); test/node's run under tsx. */
const serverTestFiles = nodeTestFiles(['server/test', 'test/security/service']);
let bundles;
if (!failedStep) {
  step('bundle the server\'s Node tests (esbuild)');
  bundles = await timed('bundle', bundleNodeTests(serverTestFiles)).catch((error) => {
    console.error(error);
    failedStep ??= 'bundling the server tests';
  });
}

if (!failedStep) {
  // Two files at a time, one per core: each file is its own process with its own databases (fresh
  // PGlite copies, or PostgreSQL databases of random names), temp directories and OS-chosen ports.
  // Three at a time took as long (623 s against 618 s): the step keeps both cores busy.
  step('node tests: server (PGlite), bundled');
  const embedded = await timed('node tests (PGlite)', nodeTests(serverTestFiles.map((file) => bundles.get(file)), embeddedEnv, { concurrency: 2, bundled: true }));
  if (!embedded.ok) failedStep ??= 'server tests';

  step('node tests: the package (proxy, build, bench, documentation; node:test under tsx)');
  const packageTests = await timed('node tests (package)', nodeTests(nodeTestFiles(['test/node']), embeddedEnv, { concurrency: 2 }));
  if (!packageTests.ok) failedStep ??= 'package tests';

  // The PostgreSQL run shares nothing with the browser tests (the dev server's service is in-memory
  // PGlite), so it runs alongside them; its output follows theirs. Two files at a time: the browser
  // tests end first (about 390 s against 650 s for one file at a time), and each file has its own
  // databases of random names and its own Redis keys (accounts of random ids).
  const redis = process.env.AI_CHAT_TEST_REDIS_URL ? 'Redis' : 'in-process rate limits';
  const postgres = process.env.AI_CHAT_TEST_DATABASE_URL
    ? timed('node tests (PostgreSQL, beside the browser tests)', nodeTests(serverTestFiles.filter((file) => usesTestDatabase(file)).map((file) => bundles.get(file)), process.env, { concurrency: 2, quiet: true, bundled: true }))
    : undefined;

  step(`browser tests (web-test-runner, headless chromium)${postgres ? ', beside the server tests on PostgreSQL' : ''}`);
  const browser = await timed('browser tests', run(npx, ['--no-install', 'web-test-runner'], { capture: true }));
  browserFailures(browser.out);
  const counts = [...browser.out.matchAll(/(\d+) passed, (\d+) failed/g)].at(-1);
  totals.passed += Number(counts?.[1] ?? 0);
  totals.failed += Number(counts?.[2] ?? 0);
  if (browser.code !== 0 && !Number(counts?.[2] ?? 0)) totals.failed += 1;

  if (postgres) {
    step(`node tests again: server on PostgreSQL (AI_CHAT_TEST_DATABASE_URL) and ${redis}`);
    const result = await postgres;
    process.stdout.write(result.out);
    if (!result.ok) failedStep ??= 'server tests on PostgreSQL';
  }
  if (browser.code !== 0) failedStep ??= 'browser tests';
}

/**
 * Runs `node:test` over `files` in `env`, `concurrency` files at a time, adds its counts to the
 * totals, and says whether it passed; with `quiet`, its output is returned instead of shown. Files
 * are TypeScript run under tsx, or with `bundled` JavaScript bundles run by plain node.
 */
async function nodeTests(files, env, { concurrency = 1, quiet = false, bundled = false } = {}) {
  const result = await run(
    'node',
    // A test that fails before closing its services must not hang the run: each test has a time
    // limit, and the runner exits when the files are done even if handles are still open.
    [...(bundled ? ['--enable-source-maps'] : ['--import', 'tsx']), ...WASM_BASELINE_ONLY, '--test', `--test-concurrency=${concurrency}`, '--test-force-exit', '--test-timeout=180000',
      '--test-reporter=spec', ...files],
    { env, capture: true, quiet },
  );
  // The spec reporter's closing summary ("ℹ pass N", "ℹ fail N"); read from the output because a
  // reporter writing to a file may not have flushed when --test-force-exit ends the process.
  const plain = plainText(result.out); // in case colours are forced
  nodeFailures(plain);
  const count = (name) => Number([...plain.matchAll(new RegExp(`^ℹ ${name} (\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0);
  const pass = count('pass');
  const fail = count('fail');
  totals.passed += pass;
  totals.failed += fail;
  if (result.code !== 0 && fail === 0) totals.failed += 1; // crashed before reporting
  if (result.code === 0 && pass === 0) totals.failed += 1; // nothing ran, or the summary was not found
  return { ok: result.code === 0 && pass > 0, out: quiet ? result.out : '' };
}


/** Node-side test files in `dirs` (the server's own, and the root package's Node parts), slowest first. */
function nodeTestFiles(dirs) {
  const files = dirs.flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort().map((f) => `${dir}/${f}`)
      : [],
  );
  const rank = (file) => (SLOWEST_FIRST.includes(file) ? SLOWEST_FIRST.indexOf(file) : SLOWEST_FIRST.length);
  return files.sort((a, b) => rank(a) - rank(b));
}

/**
 * Whether a test file reaches the test database's support module through its relative imports:
 * only those run again on PostgreSQL (a file that never opens a database would test nothing new).
 */
function usesTestDatabase(file, seen = new Set()) {
  if (file.endsWith('/support/test-database.ts')) return true;
  if (seen.has(file) || !existsSync(file) || !file.includes('test/')) return false;
  seen.add(file);
  const imports = readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g);
  return [...imports].some(([, spec]) => usesTestDatabase(join(dirname(file), spec), seen));
}

console.log();
console.log(`times: ${times.join(', ')}; total ${Math.round((performance.now() - started) / 1000)} s`);
if (failures.length) {
  console.log(`failed tests (${failures.length}):`);
  for (const failure of failures.slice(0, 20)) console.log(`  ${failure.slice(0, 300)}`);
}
console.log(`${totals.passed} passed, ${totals.failed} failed`);
if (failedStep) {
  console.error(`FAILED: ${failedStep}`);
  process.exit(1);
}
if (totals.passed === 0) {
  console.error('FAILED: no test ran');
  process.exit(1);
}
