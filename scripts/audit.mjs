// `npm run audit`: Lighthouse on the demo pages, served the way `npm start` serves them.
// Builds, starts the server on a free loopback port with a temporary database, runs Lighthouse
// (Debian chromium, mobile defaults) on each page, prints the four category scores and the
// Cumulative Layout Shift, and fails when accessibility or best practices is below 100, performance
// below 95, or the layout shift above 0.1.
//
// Usage: node scripts/audit.mjs [--no-build] [path ...]   (default: every demo page, demo/*.html)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from './demo-server.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const paths = args.filter((a) => a.startsWith('/'));
// every page a site owner could copy from: a page left out here was never measured (inline.html had
// a layout shift of 0.619 that the audit did not see)
const demoPages = readdirSync(join(root, 'demo'))
  .filter((file) => file.endsWith('.html'))
  .sort()
  .map((file) => (file === 'index.html' ? '/' : `/${file}`));
if (!paths.length) paths.push(...demoPages);
const MINIMUM = { accessibility: 100, 'best-practices': 100, performance: 95, seo: 0 }; // SEO: reported only
const MAX_LAYOUT_SHIFT = 0.1; // Core Web Vitals' "good" Cumulative Layout Shift
const CHROME_FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function run(cmd, cmdArgs, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...options });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

if (!args.includes('--no-build')) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if ((await run(npm, ['run', '--silent', 'build'])) !== 0) process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'ai-chat-audit-'));
const server = await startDemoServer();
let failed = false;
try {
  for (const path of paths) {
    const report = join(work, 'lighthouse.json');
    const code = await run(
      join(root, 'node_modules', '.bin', 'lighthouse'),
      [
        `${server.url}${path}`, '--quiet', '--output=json', `--output-path=${report}`,
        '--only-categories=performance,accessibility,best-practices,seo',
        `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
      ],
      { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' } },
    );
    if (code !== 0) {
      console.error(`FAIL ${path}: lighthouse exited with ${code}`);
      failed = true;
      continue;
    }
    const lhr = JSON.parse(readFileSync(report, 'utf8'));
    if (lhr.runtimeError) {
      console.error(`FAIL ${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      failed = true;
      continue;
    }
    const scores = Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, Math.round(c.score * 100)]));
    const low = Object.entries(MINIMUM).filter(([id, min]) => scores[id] < min);
    const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
    const shifted = !(cls <= MAX_LAYOUT_SHIFT);
    failed ||= low.length > 0 || shifted;
    console.log(
      `${low.length || shifted ? 'FAIL' : 'ok  '} ${path}: accessibility ${scores.accessibility}, best practices ${scores['best-practices']}, ` +
        `performance ${scores.performance} (CLS ${cls.toFixed(3)}), SEO ${scores.seo}  ` +
        `(Lighthouse ${lhr.lighthouseVersion}, ${lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0]})`,
    );
    // what to fix: every audit that cost points in a category below its minimum
    for (const [id] of low) {
      for (const ref of lhr.categories[id].auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
          console.log(`       ${id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
          for (const item of (audit.details?.items ?? []).slice(0, 4)) {
            const what = item.node?.snippet ?? item.description ?? item.source?.url ?? item.url ?? '';
            if (what) console.log(`         - ${String(what).slice(0, 160)}${item.node?.explanation ? `: ${item.node.explanation.split('\n').slice(0, 2).join(' ')}` : ''}`);
          }
        }
      }
    }
    for (const warning of lhr.runWarnings ?? []) console.log(`       warning: ${warning}`);
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
if (failed) {
  console.error(
    `audit failed: accessibility and best practices must be 100, performance at least 95, layout shift at most ${MAX_LAYOUT_SHIFT}`,
  );
  process.exit(1);
}
