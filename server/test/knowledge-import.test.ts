// Knowledge imports of files end to end: Markdown, HTML, text and PDF split into entries by
// headings, re-sync, upload limits and formats (also through the dashboard's passthrough), an
// unreadable document; and import jobs on two instances of one PostgreSQL (one run at a time, a
// job a dead process left behind).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService } from '../src/index.ts';
import { caller, type Caller } from './support/api.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { minimalPdf } from './support/pdf.ts';
import { b64, importSuite } from './support/import-site.ts';
import { sharedServices, TEST_DATABASE_URL, type SharedServices } from './support/test-database.ts';

const suite = importSuite({
  // Other bodies stay small; uploads have their own limit (64 KiB decoded here).
  maxBodyBytes: 16 * 1024,
  imports: { allowPrivateHosts: ['127.0.0.1/32'], maxUploadBytes: 64 * 1024, pageBytes: 20_000, timeoutMs: 1_500, maxPages: 20 },
});
const { site, importAndWait, syncAndWait, entriesOf } = suite;
const call: Caller = (path, options) => suite.call(path, options);

describe('importing files', () => {
  it('splits Markdown, HTML, text and PDF into entries by headings, with heading paths', async () => {
    const markdown = '# Shipping guide\n\nWe ship worldwide.\n\n## Europe\n\nParcels to Europe take 3 days.\n\n```\n# not a heading\n```\n\n### Islands\n\nIslands take a week.\n';
    const html = '<html><head><title>Returns</title></head><body><nav>Menu</nav><h1>Returns</h1><p>Return within 30 days.</p><h2>Refunds</h2><p>Refunds are paid in 5 days.</p></body></html>';
    const pdf = minimalPdf([['Warranty terms', 'Every kettle has a two year warranty.'], ['Claims are made by email.']]);
    const started = await call('/v1/knowledge/imports', {
      body: {
        kind: 'files',
        tags: ['docs'],
        files: [
          { name: 'shipping.md', data: b64(markdown) },
          { name: 'returns.html', data: b64(html) },
          { name: 'notes.txt', data: b64('Opening hours are 9 to 5.') },
          { name: 'warranty.pdf', media_type: 'application/pdf', data: b64(pdf) },
        ],
      },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.match(started.body.data.id, /^kbi_/);
    assert.ok(['queued', 'running', 'succeeded'].includes(started.body.data.job.status));

    // The job runs in this process: its run settles once the outcome is recorded.
    await suite.service.deps.importJobs.runs.running(started.body.data.job.id);
    const item = (await call(`/v1/knowledge/imports/${started.body.data.id}`)).body.data;
    assert.equal(item.job.status, 'succeeded', JSON.stringify(item.job));
    assert.deepEqual(item.job.issues, []);
    assert.equal(item.job.progress.documents_found, 4);
    assert.equal(item.job.progress.documents_done, 4);
    assert.equal(item.entries, 8);
    assert.equal(item.job.progress.entries_created, 8);

    const entries = await entriesOf(item.id);
    const byTitle = new Map(entries.map((e) => [e.title, e]));
    assert.deepEqual(
      entries.map((e) => e.title),
      ['notes.txt', 'Returns', 'Returns › Refunds', 'Shipping guide', 'Shipping guide › Europe', 'Shipping guide › Europe › Islands', 'warranty.pdf › Page 1', 'warranty.pdf › Page 2'].sort((a, b) => a.localeCompare(b)),
    );
    assert.deepEqual(byTitle.get('Shipping guide › Europe')!.heading_path, ['Shipping guide', 'Europe']);
    assert.match(byTitle.get('Shipping guide › Europe')!.content, /# not a heading/);
    assert.deepEqual(byTitle.get('Shipping guide › Europe › Islands')!.heading_path, ['Shipping guide', 'Europe', 'Islands']);
    assert.equal(byTitle.get('Returns › Refunds')!.content, 'Refunds are paid in 5 days.');
    assert.doesNotMatch(byTitle.get('Returns')!.content, /Menu/);
    assert.match(byTitle.get('warranty.pdf › Page 1')!.content, /two year warranty/);
    assert.equal(byTitle.get('notes.txt')!.content, 'Opening hours are 9 to 5.');

    const search = await call('/v1/knowledge/search?q=kettle%20warranty');
    assert.equal(search.body.data.items[0].title, 'warranty.pdf › Page 1');
    assert.deepEqual(search.body.data.items[0].heading_path, ['Page 1']);
  });

  it('re-syncs files: changed sections updated, unchanged untouched, missing files deleted', async () => {
    const first = await importAndWait({
      kind: 'files',
      files: [
        { name: 'a.md', data: b64('# A\n\nAlpha one.\n\n## Two\n\nAlpha two.') },
        { name: 'b.md', data: b64('# B\n\nBravo.') },
      ],
    });
    const before = await entriesOf(first.id);
    assert.equal(before.length, 3);
    const synced = await syncAndWait(first.id, { files: [{ name: 'a.md', data: b64('# A\n\nAlpha one.\n\n## Two\n\nAlpha two, changed.') }] });
    assert.equal(synced.job.status, 'succeeded', JSON.stringify(synced.job));
    assert.deepEqual(
      { u: synced.job.progress.entries_updated, c: synced.job.progress.entries_created, d: synced.job.progress.entries_deleted, n: synced.job.progress.entries_unchanged },
      { u: 1, c: 0, d: 1, n: 1 },
    );
    const after = await entriesOf(first.id);
    assert.deepEqual(after.map((e) => e.title), ['A', 'A › Two']);
    const a = after.find((e) => e.title === 'A')!;
    assert.equal(a.id, before.find((e) => e.title === 'A')!.id);
    assert.equal(a.version, 1);
    const two = after.find((e) => e.title === 'A › Two')!;
    assert.equal(two.version, 2);
    assert.equal(two.content, 'Alpha two, changed.');
  });

  it('refuses uploads over the limit (413), unknown formats (415), bad base64 and misplaced fields (400)', async () => {
    const big = await call('/v1/knowledge/imports', { body: { kind: 'files', files: [{ name: 'big.txt', data: b64('x'.repeat(70 * 1024)) }] } });
    assert.equal(big.status, 413, JSON.stringify(big.body));
    assert.equal(big.body.success, false);
    assert.equal(big.body.error.code, 'payload_too_large');

    const wholeBody = await call('/v1/knowledge/imports', { body: { kind: 'files', files: [{ name: 'big.txt', data: b64('x'.repeat(200 * 1024)) }] } });
    assert.equal(wholeBody.status, 413);
    assert.equal(wholeBody.body.error.code, 'payload_too_large');

    const exe = await call('/v1/knowledge/imports', { body: { kind: 'files', files: [{ name: 'tool.exe', data: b64('MZ') }] } });
    assert.equal(exe.status, 415);
    assert.equal(exe.body.error.code, 'unsupported_media_type');
    assert.equal(exe.body.error.param, 'files.0.media_type');

    const badBase64 = await call('/v1/knowledge/imports', { body: { kind: 'files', files: [{ name: 'a.txt', data: 'not base64!' }] } });
    assert.equal(badBase64.status, 400);
    assert.equal(badBase64.body.error.code, 'validation_failed');

    const noFiles = await call('/v1/knowledge/imports', { body: { kind: 'files', url: 'https://example.com/' } });
    assert.equal(noFiles.status, 400);
    assert.equal(noFiles.body.error.param, 'url');

    const duplicate = await call('/v1/knowledge/imports', { body: { kind: 'files', files: [{ name: 'a.txt', data: b64('1') }, { name: 'a.txt', data: b64('2') }] } });
    assert.equal(duplicate.status, 400);
    assert.equal(duplicate.body.error.param, 'files.1.name');
  });

  it('takes uploads over the service\'s body limit up to their own, on /v1 and the dashboard\'s passthrough', async () => {
    const text = `# Big\n\n${'Long manual text. '.repeat(2_500)}`; // ~45 KB: over 16 KiB, under 64 KiB
    const typed = await call('/v1/knowledge', { body: { title: 'Big', content: text } });
    assert.equal(typed.status, 413, 'other bodies keep the service limit');
    const direct = await importAndWait({ kind: 'files', files: [{ name: 'big.md', data: b64(text) }] });
    assert.equal(direct.job.status, 'succeeded', JSON.stringify(direct.job));

    const owner = new DashboardClient(suite.service);
    assert.equal((await owner.signUp(uniqueEmail('importer'))).status, 201);
    const viaSession = await owner.call('POST', '/dashboard/api/v1/knowledge/imports?wait=true', { body: { kind: 'files', files: [{ name: 'big.md', data: b64(text) }] } });
    assert.equal(viaSession.status, 200, JSON.stringify(viaSession.body).slice(0, 300));
    assert.equal(viaSession.body.data.job.status, 'succeeded');
    const tooBig = await owner.call('POST', '/dashboard/api/v1/knowledge/imports', { body: { kind: 'files', files: [{ name: 'big.md', data: b64(text.repeat(2)) }] } });
    assert.equal(tooBig.status, 413);
    assert.equal(tooBig.body.error.code, 'payload_too_large');
  });

  it('fails a job whose only document is unreadable, keeping what the import held', async () => {
    const item = await importAndWait({ kind: 'files', files: [{ name: 'broken.pdf', data: b64('%PDF-1.4 garbage') }] });
    assert.equal(item.job.status, 'failed');
    assert.equal(item.job.error.code, 'unreadable_document');
    assert.equal(item.job.issues[0].code, 'unreadable_document');
  });
});

describe('import jobs on two instances of one database', () => {
  const skip = TEST_DATABASE_URL ? false : 'needs a shared PostgreSQL: set AI_CHAT_TEST_DATABASE_URL';
  let shared: SharedServices;
  let calls: Caller[];
  before(async () => {
    if (skip) return;
    shared = await sharedServices(2, { imports: { allowPrivateHosts: ['127.0.0.1/32'], timeoutMs: 10_000 } });
    // A plan the polling below cannot use up: a job now starts its parse worker first, so it is
    // polled more often than the default 120 requests a minute allow.
    const { apiKey } = await shared.instances[0]!.createAccount({ rateLimit: { points: 100_000, durationSeconds: 60 } });
    calls = shared.instances.map((instance) => caller(instance, apiKey));
  });
  after(() => shared?.close());

  it('runs one job of an import at a time: the other instance answers 409 while it runs', { skip }, async () => {
    site.text('/robots.txt', 'text/plain', '');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let served = 0;
    site.pages.set('/two/', (_req, res) => {
      served++;
      void held.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Two</h1><p>Two instances.</p>'));
    });
    const started = await calls[0]!('/v1/knowledge/imports', { body: { kind: 'url', url: `${site.origin}/two/` } });
    assert.equal(started.status, 202);
    const id = started.body.data.id;
    const refused = await calls[1]!(`/v1/knowledge/imports/${id}/sync`, { method: 'POST' });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'conflict');
    release();
    let item = started.body.data;
    while (item.job.status === 'queued' || item.job.status === 'running') item = (await calls[1]!(`/v1/knowledge/imports/${id}`)).body.data;
    assert.equal(item.job.status, 'succeeded');
    assert.equal(served, 1);

    // Both instances asked at once: one job starts, the other request is refused.
    const both = await Promise.all(calls.map((call) => call(`/v1/knowledge/imports/${id}/sync?wait=true`, { method: 'POST' })));
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
    assert.equal(served, 2);
  });

  it('fails a job a dead process left behind, and lets the import sync again', { skip }, async () => {
    site.html('/left/', '<h1>Left</h1><p>Left behind.</p>');
    const item = (await calls[0]!('/v1/knowledge/imports?wait=true', { body: { kind: 'url', url: `${site.origin}/left/` } })).body.data;
    // As a crashed process leaves it: running, its heartbeat long stale.
    await shared.database.execute(`update knowledge_import_jobs set status = 'running', finished_at = null, heartbeat_at = now() - interval '1 hour' where id = '${item.job.id}'`);
    const synced = await calls[1]!(`/v1/knowledge/imports/${item.id}/sync?wait=true`, { method: 'POST' });
    assert.equal(synced.status, 200, JSON.stringify(synced.body));
    assert.equal(synced.body.data.job.status, 'succeeded');
    assert.equal(synced.body.data.job.progress.entries_unchanged, 1);
    await shared.database.execute(`update knowledge_import_jobs set status = 'running', finished_at = null, heartbeat_at = now() - interval '1 hour' where id = '${synced.body.data.job.id}'`);
    // Recovery runs in every instance's start-up.
    const restarted = await createService({ seed: false, logLevel: 'silent', ...shared.database.options });
    try {
      const job = (await calls[0]!(`/v1/knowledge/imports/${item.id}`)).body.data.job;
      assert.equal(job.status, 'failed');
      assert.equal(job.error.code, 'interrupted');
    } finally {
      await restarted.close();
    }
  });
});
