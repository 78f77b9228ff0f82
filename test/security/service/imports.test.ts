// Knowledge imports that cannot stall the service: a document of thousands of sections is parsed in
// the worker thread and written in bounded chunks (each its own statement and transaction, as the
// rows' xmin/cmin show); caps on sections, on an account's entries and on what a PDF's streams
// inflate to (a decompression bomb built here); at most two jobs of an account at once, a cap on
// its queue (429), and a deadline per job.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { sql } from 'kysely';
import { WRITE_CHUNK } from '../../../server/src/knowledge/import/entries.ts';
import type { ParseInput } from '../../../server/src/knowledge/import/parser.ts';
import { caller } from '../../../server/test/support/api.ts';
import { b64, importSuite, type ImportSuite } from '../../../server/test/support/import-site.ts';
import { minimalPdf } from '../../../server/test/support/pdf.ts';

const LOOPBACK = { allowPrivateHosts: ['127.0.0.1/32'], maxUploadBytes: 1024 * 1024, timeoutMs: 10_000 };

/** A Markdown file of `n` headings, each with a line of text: `n` sections. */
const headings = (n: number) => Array.from({ length: n }, (_, i) => `## Topic ${i}\n\nThe answer about topic ${i}.\n`).join('\n');

/** A one-page PDF whose content stream is `stream`, Flate-compressed; cross-reference offsets exact. */
function flatePdf(stream: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  const offsets: number[] = [];
  const size = () => parts.reduce((n, p) => n + p.length, 0);
  const object = (id: number, body: Buffer | string) => {
    offsets[id] = size();
    parts.push(Buffer.from(`${id} 0 obj\n`, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n', 'latin1'));
  };
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>');
  const compressed = deflateSync(stream);
  object(4, Buffer.concat([Buffer.from(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'), compressed, Buffer.from('\nendstream', 'latin1')]));
  object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const xref = size();
  let tail = `xref\n0 6\n0000000000 65535 f \n`;
  for (let id = 1; id <= 5; id++) tail += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  parts.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

/** Counts the documents parsed in the import worker's thread. */
function spyOnParsingThread(suite: ImportSuite): ParseInput[] {
  const worker = suite.service.deps.importJobs.parser.worker;
  const seen: ParseInput[] = [];
  const run = worker.run.bind(worker);
  worker.run = (input) => {
    seen.push(input);
    return run(input);
  };
  return seen;
}

/** The transactions and statements that inserted an import's entries, read from the rows' xmin and cmin. */
async function insertsOf(suite: ImportSuite, importId: string): Promise<{ transactions: number; statements: number[] }> {
  const { rows } = await sql<{ tx: string; cmd: string; n: number }>`
    select xmin::text as tx, cmin::text as cmd, count(*)::int as n from knowledge_entries where import_id = ${importId} group by 1, 2`.execute(suite.service.deps.db);
  return { transactions: new Set(rows.map((r) => r.tx)).size, statements: rows.map((r) => r.n) };
}

describe('a large import does not hold the service', () => {
  const suite = importSuite({ imports: { ...LOOPBACK, maxSections: 6_000, maxInflatedBytes: 1024 * 1024 } });

  it('parses 5,000 headings in the worker thread and writes them in chunks, each one statement in its own transaction', async () => {
    const parsed = spyOnParsingThread(suite);
    const item = await suite.importAndWait({ kind: 'files', files: [{ name: 'huge.md', data: b64(headings(5_000)) }] });
    assert.equal(item.job.status, 'succeeded', JSON.stringify(item.job));
    assert.equal(item.entries, 5_000);
    assert.equal(item.job.progress.entries_created, 5_000);
    assert.deepEqual(parsed.map((p) => p.fallbackTitle), ['huge.md'], 'the document went to the parsing thread');

    const { transactions, statements } = await insertsOf(suite, item.id);
    assert.equal(transactions, Math.ceil(5_000 / WRITE_CHUNK), 'one transaction per chunk');
    assert.equal(statements.length, transactions, 'one insert statement per chunk');
    assert.ok(statements.every((rows) => rows <= WRITE_CHUNK), `chunks of at most ${WRITE_CHUNK} rows: ${statements.join(',')}`);

    // Deleting it goes in chunks as well, and leaves nothing.
    const deleted = await suite.call(`/v1/knowledge/imports/${item.id}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const { n } = (await sql<{ n: number }>`select count(*)::int as n from knowledge_entries where import_id = ${item.id}`.execute(suite.service.deps.db)).rows[0]!;
    assert.equal(n, 0);
  });

  it('refuses a PDF whose stream inflates past the budget (a decompression bomb) as document_too_large', async () => {
    const bomb = flatePdf(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros: ~64 KB deflated
    assert.ok(bomb.length < 100 * 1024);
    const item = await suite.importAndWait({ kind: 'files', files: [{ name: 'bomb.pdf', data: b64(bomb) }] });
    assert.equal(item.job.status, 'failed', JSON.stringify(item.job));
    assert.equal(item.job.error.code, 'document_too_large');
    assert.deepEqual(item.job.issues.map((i: { code: string; document: string }) => [i.document, i.code]), [['bomb.pdf', 'document_too_large']]);
    assert.equal(item.entries, 0);

    // A compressed PDF within the budget is read as before.
    const fine = flatePdf(Buffer.from('BT /F1 12 Tf 72 720 Td (Compressed pages are read too.) Tj ET', 'latin1'));
    const read = await suite.importAndWait({ kind: 'files', files: [{ name: 'fine.pdf', data: b64(fine) }] });
    assert.equal(read.job.status, 'succeeded', JSON.stringify(read.job));
    assert.equal(read.entries, 1);
  });
});

describe('caps on a document and on an account', () => {
  const suite = importSuite({ imports: { ...LOOPBACK, maxSections: 300, maxAccountEntries: 150 } });

  it('refuses a document of more sections than the cap as too_many_sections, and a PDF of more pages before reading them', async () => {
    const item = await suite.importAndWait({ kind: 'files', files: [{ name: 'many.md', data: b64(headings(301)) }, { name: 'few.md', data: b64(headings(3)) }] });
    assert.equal(item.job.status, 'succeeded', JSON.stringify(item.job));
    assert.deepEqual(item.job.issues.map((i: { code: string; document: string }) => [i.document, i.code]), [['many.md', 'too_many_sections']]);
    assert.equal(item.entries, 3);

    const pages = Array.from({ length: 301 }, (_, i) => [`Page ${i}`]);
    const pdf = await suite.importAndWait({ kind: 'files', files: [{ name: 'pages.pdf', data: b64(minimalPdf(pages)) }] });
    assert.equal(pdf.job.status, 'failed', JSON.stringify(pdf.job));
    assert.equal(pdf.job.error.code, 'too_many_sections');
    assert.equal(pdf.entries, 0);
  });

  it('stops at the account\'s entry quota with knowledge_quota_exceeded, the job failed', async () => {
    const other = caller(suite.service, (await suite.service.createAccount()).apiKey);
    const item = await suite.importAndWait({ kind: 'files', files: [{ name: 'big.md', data: b64(headings(250)) }] }, other);
    assert.equal(item.job.status, 'failed', JSON.stringify(item.job));
    assert.equal(item.job.error.code, 'knowledge_quota_exceeded');
    assert.ok(item.entries <= 150, `${item.entries} entries`);
    assert.equal(item.job.progress.entries_created, item.entries);
  });
});

/** Pages that answer only when the test releases them, counting the requests in flight. */
function heldPages(suite: ImportSuite) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state = { inFlight: 0, most: 0, served: 0 };
  const waiters: { count: number; resolve(): void }[] = [];
  suite.site.text('/robots.txt', 'text/plain', '');
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    state.inFlight++;
    state.most = Math.max(state.most, state.inFlight);
    state.served++;
    for (const waiter of waiters.filter((w) => state.served >= w.count)) waiter.resolve();
    void gate.then(() => {
      state.inFlight--;
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Held</h1><p>Page ${req.url}.</p>`);
    });
  };
  return {
    state,
    release,
    handler,
    /** Resolves once `count` held pages have been asked for. */
    requested: (count: number) => new Promise<void>((resolve) => (state.served >= count ? resolve() : waiters.push({ count, resolve }))),
  };
}

describe('jobs of one account', () => {
  const suite = importSuite({ imports: { ...LOOPBACK, runningPerAccount: 2, jobsPerAccount: 4 } });

  it('runs two at a time (the others queued) and refuses more than four queued or running with 429 import_queue_full', async () => {
    const held = heldPages(suite);
    for (let i = 0; i < 4; i++) suite.site.pages.set(`/held/${i}`, held.handler);
    const ids: string[] = [];
    const runs: Promise<void>[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await suite.call('/v1/knowledge/imports', { body: { kind: 'url', url: `${suite.site.origin}/held/${i}` } });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      ids.push(res.body.data.id);
      runs.push(suite.service.deps.importJobs.runs.running(res.body.data.job.id) ?? Promise.resolve());
    }
    await held.requested(2);
    const statuses = async () => Promise.all(ids.map(async (id) => (await suite.call(`/v1/knowledge/imports/${id}`)).body.data.job.status as string));
    assert.deepEqual((await statuses()).sort(), ['queued', 'queued', 'running', 'running']);

    const refused = await suite.call('/v1/knowledge/imports', { body: { kind: 'url', url: `${suite.site.origin}/held/9` } });
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.success, false);
    assert.equal(refused.body.error.code, 'import_queue_full');
    const sync = await suite.call(`/v1/knowledge/imports/${ids[0]}/sync`, { method: 'POST' });
    assert.equal(sync.status, 409, 'its own job is still active');

    // Another account has its own queue.
    const other = caller(suite.service, (await suite.service.createAccount()).apiKey);
    suite.site.html('/free', '<h1>Free</h1><p>Not held.</p>');
    const free = await suite.importAndWait({ kind: 'url', url: `${suite.site.origin}/free` }, other);
    assert.equal(free.job.status, 'succeeded', JSON.stringify(free.job));

    held.release();
    await Promise.all(runs);
    assert.deepEqual(await statuses(), ['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    assert.equal(held.state.most, 2, 'never more than two of its crawls at once');
    const again = await suite.call('/v1/knowledge/imports', { body: { kind: 'url', url: `${suite.site.origin}/free` } });
    assert.equal(again.status, 202, 'room again once they finished');
  });
});

describe('a job past its deadline', () => {
  const suite = importSuite({ imports: { ...LOOPBACK, jobTimeoutMs: 300 } });

  it('is stopped and fails with job_timeout, its page request cut off', async () => {
    const held = heldPages(suite);
    suite.site.pages.set('/forever', held.handler);
    const item = await suite.importAndWait({ kind: 'url', url: `${suite.site.origin}/forever` });
    held.release();
    assert.equal(item.job.status, 'failed', JSON.stringify(item.job));
    assert.equal(item.job.error.code, 'job_timeout');
    assert.equal(item.entries, 0);
  });
});
