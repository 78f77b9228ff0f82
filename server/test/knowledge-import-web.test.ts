// Knowledge imports of web pages from a local site on loopback: crawl, sitemap (and sitemap
// index), robots.txt, page limit, re-sync, charsets; hostile input (huge, flooding and endless
// pages, other content types, redirect loops, redirects to other addresses, credentials, other
// schemes); private addresses refused unless the operator allows them; citations carrying url +
// headings.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { caller, memoryService, type Caller } from './support/api.ts';
import { importSuite } from './support/import-site.ts';

const suite = importSuite({
  imports: { allowPrivateHosts: ['127.0.0.1/32'], maxUploadBytes: 64 * 1024, pageBytes: 20_000, timeoutMs: 1_500, maxPages: 20 },
});
const { site, importAndWait, syncAndWait, entriesOf } = suite;
const call: Caller = (path, options) => suite.call(path, options);

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
    site.html('/hostile/', '<h1>Index</h1><p>Hostile index.</p>' + ['huge', 'flood', 'endless', 'image', 'redirect', 'compatible', 'fine'].map((p) => `<a href="/hostile/${p}">${p}</a>`).join(' '));
    site.text('/hostile/huge', 'text/html', `<p>${'x'.repeat(50_000)}</p>`);
    site.pages.set('/hostile/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>');
      const timer = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(timer));
    });
    site.text('/hostile/image', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    site.pages.set('/hostile/redirect', (_req, res) => res.writeHead(302, { location: `http://127.0.0.2:${new URL(site.origin).port}/x` }).end());
    // IPv4-compatible IPv6 (`::/96`) embedding loopback: a private address, not another public host.
    site.pages.set('/hostile/compatible', (_req, res) => res.writeHead(302, { location: `http://[::127.0.0.1]:${new URL(site.origin).port}/x` }).end());
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
    assert.deepEqual(codes, { huge: 'page_too_large', flood: 'page_too_large', endless: 'fetch_timeout', image: 'unsupported_content_type', redirect: 'private_address', compatible: 'private_address' });
    assert.equal(item.entries, 2);
  });

  it('follows a sitemap index to its sitemaps; a redirect loop and credentials in a redirect are refused per page', async () => {
    site.text('/robots.txt', 'text/plain', '');
    const urlset = (paths: string[]) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${site.origin}${p}</loc></url>`).join('')}</urlset>`;
    site.text('/index.xml', 'text/xml', `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.origin}/part1.xml</loc></sitemap><sitemap><loc>${site.origin}/part2.xml</loc></sitemap></sitemapindex>`);
    site.text('/part1.xml', 'application/xml', urlset(['/idx/one', '/idx/loop']));
    site.text('/part2.xml', 'application/xml', urlset(['/idx/two', '/idx/creds']));
    site.html('/idx/one', '<h1>One</h1><p>First page.</p>');
    site.html('/idx/two', '<h1>Two</h1><p>Second page.</p>');
    site.pages.set('/idx/loop', (_req, res) => res.writeHead(301, { location: '/idx/loop' }).end());
    site.pages.set('/idx/creds', (_req, res) => res.writeHead(302, { location: `http://user:pw@127.0.0.1:${new URL(site.origin).port}/idx/one` }).end());
    const item = await importAndWait({ kind: 'sitemap', url: `${site.origin}/index.xml` });
    assert.equal(item.job.status, 'succeeded', JSON.stringify(item.job));
    assert.equal(item.entries, 2);
    const codes = Object.fromEntries(item.job.issues.map((i: { code: string; document: string }) => [i.document.replace(site.origin, ''), i.code]));
    assert.deepEqual(codes, { '/idx/loop': 'too_many_redirects', '/idx/creds': 'credentials_in_url' });
  });

  it('reads nothing while robots.txt cannot be read (5xx)', async () => {
    site.pages.set('/robots.txt', (_req, res) => res.writeHead(503).end());
    site.html('/closed/', '<h1>Closed</h1><p>Closed.</p>');
    const item = await importAndWait({ kind: 'url', url: `${site.origin}/closed/` });
    assert.equal(item.job.status, 'failed');
    assert.equal(item.job.error.code, 'robots_unavailable');
    assert.equal(item.entries, 0);
    site.text('/robots.txt', 'text/plain', '');
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

  it('refuses loopback by the address a name resolves to at connect time', async () => {
    const port = new URL(site.origin).port;
    const item = await importAndWait({ kind: 'url', url: `http://localhost:${port}/docs/` }, strictCall);
    assert.equal(item.job.status, 'failed');
    assert.equal(item.job.error.code, 'private_address', JSON.stringify(item.job.error));
    assert.equal(item.entries, 0);
  });

  it('refuses a private address literal at once (400 url_not_allowed), in every IPv6 form that embeds one', async () => {
    const port = new URL(site.origin).port;
    const imports = async () => (await strictCall('/v1/knowledge/imports')).body.data.items.length;
    const before = await imports();
    const literals = ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::127.0.0.1]', '[::7f00:1]', '[0:0:0:0:0:0:a9fe:a9fe]', '[::10.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]'];
    for (const host of literals) {
      for (const kind of ['url', 'sitemap']) {
        const res = await strictCall('/v1/knowledge/imports', { body: { kind, url: `http://${host}:${port}/docs/` } });
        assert.equal(res.status, 400, `${host}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.success, false);
        assert.equal(res.body.error.code, 'url_not_allowed', host);
        assert.equal(res.body.error.param, 'url');
      }
    }
    assert.equal(await imports(), before, 'nothing was created');
  });
});
