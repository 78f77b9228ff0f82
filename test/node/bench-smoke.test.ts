/// <reference types="node" />
// `npm run bench -- --smoke` end to end: sizes, both widgets in chromium, and the real service under
// autocannon, at the smallest sizes. Checks the bench still produces every row of its table with a
// real number, not how fast anything is.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Row {
  id: string;
  label: string;
  ours: number | null;
  deepChat: number | null;
}

const EXPECTED = {
  /** Rows where deep-chat is measured too. */
  both: [
    'size.iife.gzip', 'size.iife.brotli', 'size.esm.gzip', 'size.esm.brotli',
    'browser.ready', 'browser.open', 'browser.render.1', 'browser.render.2', 'browser.render.3',
    'browser.append', 'browser.stream.longest', 'browser.stream.main', 'browser.heap',
    'browser.markdown.longest', 'browser.markdown.cpu', 'browser.markdown.main',
  ],
  /** Server rows: ours only. */
  oursOnly: [
    'server.ceiling', 'server.chat.1', 'server.chat.2', 'server.chat.3', 'server.bot.1', 'server.bot.2', 'server.bot.3',
    'server.search.1', 'server.search.2', 'server.search.3', 'server.proxy',
    'server.knowledge.write', 'server.knowledge.block', 'server.knowledge.cold', 'server.knowledge.search',
    // The conversation list and the analytics reports on PGlite (PostgreSQL rows only with a server).
    ...Array.from({ length: 13 }, (_, i) => `analytics.pglite.${i + 1}`),
  ],
};

describe('bench --smoke', () => {
  it('prints and writes every row of the table with measured values', { timeout: 90_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
    try {
      const out = join(dir, 'results.json');
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', `--out=${out}`], {
        cwd: root,
        encoding: 'utf8',
        timeout: 85_000,
      });
      assert.equal(run.status, 0, `bench exited with ${run.status}:\n${run.stderr}`);
      const result = JSON.parse(readFileSync(out, 'utf8')) as { rows: Row[]; smoke: boolean };
      assert.equal(result.smoke, true);
      const byId = new Map(result.rows.map((r) => [r.id, r]));
      for (const id of [...EXPECTED.both, ...EXPECTED.oursOnly]) {
        const row = byId.get(id);
        assert.ok(row, `row ${id} is missing`);
        assert.ok(typeof row.ours === 'number' && Number.isFinite(row.ours), `row ${id} has no value for ours`);
        assert.ok(run.stdout.includes(row.label), `row ${id} is not in the printed table`);
      }
      for (const id of EXPECTED.both) {
        const value = byId.get(id)!.deepChat;
        assert.ok(typeof value === 'number' && Number.isFinite(value), `row ${id} has no value for deep-chat`);
      }
      // real work was measured: throughput and sizes cannot be zero
      assert.ok(byId.get('server.chat.1')!.ours! > 0);
      assert.ok(byId.get('size.iife.gzip')!.ours! > 1000);
      assert.match(run.stdout, /IIFE bytes by module/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Sections run only when asked (each takes minutes at full size), at their smoke sizes; most of
  // the time is the service's child processes starting (three with PostgreSQL + Redis configured).
  it('runs the support and webhooks sections when asked', { timeout: 240_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
    try {
      const out = join(dir, 'results.json');
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--only=support,webhooks', `--out=${out}`], {
        cwd: root,
        encoding: 'utf8',
        timeout: 235_000,
      });
      assert.equal(run.status, 0, `bench exited with ${run.status}:\n${run.stderr}`);
      const byId = new Map((JSON.parse(readFileSync(out, 'utf8')) as { rows: Row[] }).rows.map((r) => [r.id, r]));
      // The PostgreSQL + Redis rows have a number only with both configured; they are there either way.
      for (const id of ['support.notify.two', 'support.streams.postgres']) assert.ok(byId.has(id), `row ${id} is missing`);
      for (const id of ['support.notify.one', 'support.streams', 'webhooks.latency', 'webhooks.outage']) {
        const row = byId.get(id);
        assert.ok(row, `row ${id} is missing`);
        assert.ok(typeof row.ours === 'number' && Number.isFinite(row.ours), `row ${id} has no value for ours`);
        assert.ok(run.stdout.includes(row.label), `row ${id} is not in the printed table`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
