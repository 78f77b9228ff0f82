// Knowledge imports end to end: files (Markdown, HTML, text, PDF) and web pages from a local site
// on loopback (crawl, sitemap, robots.txt, page limit, re-sync), hostile input (huge and endless
// pages, other content types, redirects to forbidden addresses, credentials, other schemes),
// private addresses refused unless the operator allows them, and citations carrying url + headings.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../src/index.ts';
import { caller, memoryService, type Caller } from './support/api.ts';
import { sharedServices, TEST_DATABASE_URL, type SharedServices } from './support/test-database.ts';
import { minimalPdf } from './support/pdf.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A small website on loopback whose pages the tests change between syncs. */
class Site {
  readonly pages = new Map<string, Handler>();
  private server!: Server;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const handler = this.pages.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) return handler(req, res);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  html(path: string, body: string, title = path): void {
    this.pages.set(path, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`));
  }

  text(path: string, type: string, body: string | Buffer): void {
    this.pages.set(path, (_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

let service: Service;
let call: Caller;
const site = new Site();

before(async () => {
  await site.start();
  service = await memoryService({
    imports: { allowPrivateHosts: ['127.0.0.1/32'], maxUploadBytes: 64 * 1024, pageBytes: 20_000, timeoutMs: 1_500, maxPages: 20 },
  });
  call = caller(service, (await service.createAccount()).apiKey);
});
after(async () => {
  await service.close();
  await site.close();
});

async function importAndWait(body: Record<string, unknown>, as: Caller = call) {
  const res = await as('/v1/knowledge/imports?wait=true', { body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

async function syncAndWait(id: string, body?: Record<string, unknown>) {
  const res = await call(`/v1/knowledge/imports/${id}/sync?wait=true`, { method: 'POST', body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

async function entriesOf(importId: string) {
  const res = await call('/v1/knowledge?limit=200');
  return (res.body.data.items as { import_id: string | null; title: string; content: string; url: string | null; heading_path: string[]; id: string; version: number }[])
    .filter((e) => e.import_id === importId)
    .sort((a, b) => a.title.localeCompare(b.title));
}

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

    let item = started.body.data;
    while (item.job.status === 'queued' || item.job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      item = (await call(`/v1/knowledge/imports/${item.id}`)).body.data;
    }
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

  it('fails a job whose only document is unreadable, keeping what the import held', async () => {
    const item = await importAndWait({ kind: 'files', files: [{ name: 'broken.pdf', data: b64('%PDF-1.4 garbage') }] });
    assert.equal(item.job.status, 'failed');
    assert.equal(item.job.error.code, 'unreadable_document');
    assert.equal(item.job.issues[0].code, 'unreadable_document');
  });
});

describe('importing web pages', () => {
  it('crawls same-host links from a page, respects robots.txt and the page limit, and links citations', async () => {
    site.text('/robots.txt', 'text/plain', 'User-agent: *\nDisallow: /private\n');
    site.html('/docs/', '<h1>Docs</h1><p>Start here.</p><a href="/docs/setup">Setup</a> <a href="/private/keys">Keys</a> <a href="http://example.com/x">Elsewhere</a> <a href="mailto:a@b.c">Mail</a> <a href="/docs/faq#top">FAQ</a>', 'Docs');
    site.html('/docs/setup', '<h1>Setup</h1><h2>Install the zeppelin kit</h2><p>Unpack the zeppelin kit and inflate the envelope slowly.</p><a href="/docs/more1">1</a><a href="/docs/more2">2</a><a href="/docs/more3">3</a>', 'Setup');
    // Latin-1, as its Content-Type says: "Questions et réponses" must not come out garbled.
    site.text('/docs/faq', 'text/html; charset=ISO-8859-1', Buffer.from('<html><head><title>FAQ</title></head><body><h1>FAQ</h1><p>Questions et r\u00e9ponses.</p></body></html>', 'latin1'));
    site.html('/private/keys', '<h1>Secret</h1><p>Never import me.</p>');
    for (const n of [1, 2, 3]) site.html(`/docs/more${n}`, `<h1>More ${n}</h1><p>Extra page ${n}.</p>`);

    const item = await importAndWait({ kind: 'url', url: `${site.origin}/docs/`, max_pages: 5 });
    assert.equal(item.job.status, 'succeeded', JSON.stringify(item.job));
    const codes = item.job.issues.map((i: { code: string; document: string }) => `${i.code} ${i.document.replace(site.origin, '')}`).sort();
    assert.deepEqual(codes, ['page_limit /docs/', 'robots_disallowed /private/keys']);
    const entries = await entriesOf(item.id);
    const urls = [...new Set(entries.map((e) => e.url!.replace(site.origin, '')))].sort();
    assert.deepEqual(urls, ['/docs/', '/docs/faq', '/docs/more1', '/docs/setup']);
    assert.ok(entries.every((e) => !/Never import me/.test(e.content)));
    assert.equal(entries.find((e) => e.url!.endsWith('/docs/faq'))!.content, 'Questions et réponses.');

    const reply = await call('/v1/chat', { body: { messages: [{ role: 'user', content: 'how do I inflate the zeppelin envelope?' }] } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const citation = reply.body.data.citations[0];
    assert.equal(citation.url, `${site.origin}/docs/setup`);
    assert.deepEqual(citation.heading_path, ['Setup', 'Install the zeppelin kit']);
    assert.equal(citation.title, 'Setup › Install the zeppelin kit');
    assert.deepEqual(reply.body.data.message.citations, reply.body.data.citations);
  });

  it('reads a sitemap and re-syncs it: changed pages updated, removed pages deleted, unchanged untouched', async () => {
    site.text('/robots.txt', 'text/plain', 'User-agent: *\nDisallow: /shop/hidden\n');
    const sitemap = (paths: string[]) =>
      site.text(
        '/sitemap.xml',
        'application/xml',
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${p.startsWith('http') ? p : site.origin + p}</loc></url>`).join('')}</urlset>`,
      );
    site.html('/shop/a', '<h1>Page A</h1><p>Apples are red.</p>', 'A');
    site.html('/shop/b', '<h1>Page B</h1><p>Bananas are yellow.</p>', 'B');
    site.html('/shop/c', '<h1>Page C</h1><p>Cherries are dark.</p>', 'C');
    site.html('/shop/hidden', '<h1>Hidden</h1><p>Hidden.</p>');
    sitemap(['/shop/a', '/shop/b', '/shop/c', '/shop/hidden', 'http://example.com/elsewhere']);

    const item = await importAndWait({ kind: 'sitemap', url: `${site.origin}/sitemap.xml` });
    assert.equal(item.job.status, 'succeeded', JSON.stringify(item.job));
    assert.deepEqual(item.job.issues.map((i: { code: string }) => i.code).sort(), ['other_host', 'robots_disallowed']);
    const before = await entriesOf(item.id);
    assert.deepEqual(before.map((e) => e.title), ['A › Page A', 'B › Page B', 'C › Page C']);
    assert.equal(before.length, 3);

    site.html('/shop/b', '<h1>Page B</h1><p>Bananas are yellow and sweet.</p>', 'B');
    site.pages.delete('/shop/c');
    const synced = await syncAndWait(item.id);
    assert.equal(synced.job.status, 'succeeded', JSON.stringify(synced.job));
    assert.equal(synced.job.progress.entries_unchanged, 1);
    assert.equal(synced.job.progress.entries_updated, 1);
    assert.equal(synced.job.progress.entries_deleted, 1);
    assert.ok(synced.job.issues.some((i: { code: string; document: string }) => i.code === 'not_found' && i.document.endsWith('/shop/c')));
    const after = await entriesOf(item.id);
    assert.equal(after.length, 2);
    const a = after.find((e) => e.url!.endsWith('/shop/a'))!;
    assert.equal(a.version, before.find((e) => e.url!.endsWith('/shop/a'))!.version);
    const b = after.find((e) => e.url!.endsWith('/shop/b'))!;
    assert.equal(b.version, 2);
    assert.match(b.content, /sweet/);

    // A page gone from the sitemap goes too; a sync while a job runs is refused.
    sitemap(['/shop/a']);
    const again = await syncAndWait(item.id);
    assert.equal(again.job.progress.entries_deleted, 1);
    assert.deepEqual((await entriesOf(item.id)).map((e) => e.url!.replace(site.origin, '')), ['/shop/a']);

    const deleted = await call(`/v1/knowledge/imports/${item.id}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.deepEqual(await entriesOf(item.id), []);
    assert.equal((await call(`/v1/knowledge/imports/${item.id}`)).status, 404);
    assert.equal((await call('/v1/knowledge/search?q=apples')).body.data.items.length, 0);
  });

  it('refuses hostile pages: huge, endless, other content types, redirects to other addresses', async () => {
    site.text('/robots.txt', 'text/plain', '');
    site.html('/hostile/', '<h1>Index</h1><p>Hostile index.</p>' + ['huge', 'flood', 'endless', 'image', 'redirect', 'fine'].map((p) => `<a href="/hostile/${p}">${p}</a>`).join(' '));
    site.text('/hostile/huge', 'text/html', `<p>${'x'.repeat(50_000)}</p>`);
    site.pages.set('/hostile/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>');
      const timer = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(timer));
    });
    site.text('/hostile/image', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    site.pages.set('/hostile/redirect', (_req, res) => res.writeHead(302, { location: `http://127.0.0.2:${new URL(site.origin).port}/x` }).end());
    site.html('/hostile/fine', '<h1>Fine</h1><p>A fine page.</p>');
    site.pages.set('/hostile/flood', (_req, res) => {
      // No Content-Length: the cap has to count the bytes as they arrive.
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write(`<p>${'y'.repeat(8_000)}</p>`), 5);
      res.on('close', () => clearInterval(timer));
    });

    const item = await importAndWait({ kind: 'url', url: `${site.origin}/hostile/` });
    assert.equal(item.job.status, 'succeeded', JSON.stringify(item.job));
    const codes = Object.fromEntries(item.job.issues.map((i: { code: string; document: string }) => [i.document.replace(`${site.origin}/hostile/`, ''), i.code]));
    assert.deepEqual(codes, { huge: 'page_too_large', flood: 'page_too_large', endless: 'fetch_timeout', image: 'unsupported_content_type', redirect: 'private_address' });
    assert.equal(item.entries, 2);
  });

  it('refuses other schemes and credentials at once with clear codes', async () => {
    for (const [url, code] of [
      ['file:///etc/passwd', 'unsupported_scheme'],
      ['ftp://example.com/file.txt', 'unsupported_scheme'],
      ['https://user:secret@example.com/', 'credentials_in_url'],
      ['not a url', 'unsupported_scheme'],
    ]) {
      const res = await call('/v1/knowledge/imports', { body: { kind: 'url', url } });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.param, 'url');
      assert.match(res.body.error.details[0].message, new RegExp(`^${code}: `), url);
    }
    const tooMany = await call('/v1/knowledge/imports', { body: { kind: 'sitemap', url: 'https://example.com/sitemap.xml', max_pages: 21 } });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.param, 'max_pages');
  });

  it('fails the job when the page itself cannot be read (404), writing nothing', async () => {
    site.text('/robots.txt', 'text/plain', '');
    const item = await importAndWait({ kind: 'url', url: `${site.origin}/missing` });
    assert.equal(item.job.status, 'failed');
    assert.equal(item.job.error.code, 'not_found');
    assert.equal(item.entries, 0);
  });
});

describe('private addresses', () => {
  let strict: Service;
  let strictCall: Caller;
  before(async () => {
    strict = await memoryService(); // the default: public hosts only
    strictCall = caller(strict, (await strict.createAccount()).apiKey);
  });
  after(() => strict.close());

  it('refuses loopback, by literal and by the address a name resolves to at connect time', async () => {
    const port = new URL(site.origin).port;
    for (const url of [`${site.origin}/docs/`, `http://localhost:${port}/docs/`, `http://[::ffff:127.0.0.1]:${port}/docs/`]) {
      const item = await importAndWait({ kind: 'url', url }, strictCall);
      assert.equal(item.job.status, 'failed', url);
      assert.equal(item.job.error.code, 'private_address', `${url}: ${JSON.stringify(item.job.error)}`);
      assert.equal(item.entries, 0);
    }
  });
});

describe('import jobs on two instances of one database', () => {
  const skip = TEST_DATABASE_URL ? false : 'needs a shared PostgreSQL: set AI_CHAT_TEST_DATABASE_URL';
  let shared: SharedServices;
  let calls: Caller[];
  before(async () => {
    if (skip) return;
    shared = await sharedServices(2, { imports: { allowPrivateHosts: ['127.0.0.1/32'], timeoutMs: 10_000 } });
    const { apiKey } = await shared.instances[0]!.createAccount();
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
