// Knowledge base end to end over a real PGlite: CRUD, validation codes, ranked fuzzy/stemmed search,
// tags, tenant isolation, and an index that always matches the database (updates, restarts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../src/index.ts';
import { KnowledgeIndex } from '../src/knowledge/search-index.ts';
import { chunk } from '../src/knowledge/text.ts';
import { caller, memoryService, type Caller } from './support/api.ts';
import { testDatabase } from './support/test-database.ts';

let service: Service;
let call: Caller;

before(async () => {
  service = await memoryService();
  call = caller(service, (await service.createAccount()).apiKey);
});
after(() => service.close());

async function create(body: Record<string, unknown>, as: Caller = call) {
  const res = await as('/v1/knowledge', { body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

describe('knowledge CRUD', () => {
  it('creates, reads, lists and partially updates an entry', async () => {
    const entry = await create({ title: 'Refunds', content: 'Refunds take 5 days.', tags: ['billing'], source: 'https://example.com/refunds' });
    assert.match(entry.id, /^kb_/);
    assert.equal(entry.language, 'en');
    assert.equal(entry.version, 1);
    assert.deepEqual(entry.tags, ['billing']);

    const got = await call(`/v1/knowledge/${entry.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, entry);

    const updated = await call(`/v1/knowledge/${entry.id}`, { method: 'PUT', body: { tags: ['billing', 'money'] } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.data.version, 2);
    assert.equal(updated.body.data.title, 'Refunds');
    assert.deepEqual(updated.body.data.tags, ['billing', 'money']);
    assert.ok(updated.body.data.updated_at >= entry.updated_at);

    const list = await call('/v1/knowledge?limit=200');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.items.some((e: { id: string }) => e.id === entry.id));
  });

  it('paginates with a cursor without repeating or skipping entries', async () => {
    const other = caller(service, (await service.createAccount()).apiKey);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ title: `Entry ${i}`, content: `Text ${i}` }, other)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: { items: { id: string }[]; next_cursor: string | null } } } = await other(
        `/v1/knowledge?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...res.body.data.items.map((e) => e.id));
      cursor = res.body.data.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, ids.reverse());
    assert.equal((await other('/v1/knowledge?cursor=not_a_cursor')).body.error.code, 'invalid_cursor');
  });

  it('answers the documented validation codes', async () => {
    const cases: [unknown, number, string, string?][] = [
      [{ content: 'x' }, 400, 'validation_failed', 'title'],
      [{ title: '', content: 'x' }, 400, 'validation_failed', 'title'],
      [{ title: 'x'.repeat(201), content: 'x' }, 400, 'validation_failed', 'title'],
      [{ title: 't', content: 'x'.repeat(100_001) }, 400, 'validation_failed', 'content'],
      [{ title: 't', content: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 400, 'validation_failed', 'tags'],
      [{ title: 't', content: 'x', tags: ['x'.repeat(51)] }, 400, 'validation_failed', 'tags.0'],
      [{ title: 't', content: 'x', language: 'it' }, 400, 'validation_failed', 'language'],
      [{ title: 't', content: 'x', source: 'x'.repeat(2001) }, 400, 'validation_failed', 'source'],
      [{ title: 't', content: 'x', colour: 'red' }, 400, 'unknown_parameter', 'colour'],
      ['{"title":', 400, 'invalid_json'],
    ];
    for (const [body, status, code, param] of cases) {
      const res = await call('/v1/knowledge', { body });
      assert.equal(res.status, status, JSON.stringify(body).slice(0, 80));
      assert.equal(res.body.error.code, code);
      if (param) assert.equal(res.body.error.param, param);
    }
    const noType = await call('/v1/knowledge', { body: { title: 't', content: 'x' }, headers: { 'content-type': 'text/plain' } });
    assert.equal(noType.body.error.code, 'unsupported_media_type');
  });

  it('creates once for a retried POST with the same Idempotency-Key', async () => {
    const api = caller(service, (await service.createAccount()).apiKey);
    const body = { title: 'Once', content: 'Only one of me.' };
    const first = await api('/v1/knowledge', { body, headers: { 'idempotency-key': 'kb-create-1' } });
    const again = await api('/v1/knowledge', { body, headers: { 'idempotency-key': 'kb-create-1' } });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal((await api('/v1/knowledge')).body.data.items.length, 1);
  });

  it('answers 404 for unknown or malformed ids and 405 for other methods', async () => {
    assert.equal((await call('/v1/knowledge/kb_doesnotexist123')).body.error.code, 'resource_not_found');
    assert.equal((await call('/v1/knowledge/bot_doesnotexist123')).status, 404);
    const list = await call('/v1/knowledge?limit=1');
    const empty = await call(`/v1/knowledge/${list.body.data.items[0].id}`, { method: 'PUT', body: {} });
    assert.equal(empty.body.error.code, 'validation_failed');
    const put = await call('/v1/knowledge/kb_doesnotexist123', { method: 'PUT', body: { title: 'x' } });
    assert.equal(put.status, 404);
    const patch = await call('/v1/knowledge/kb_doesnotexist123', { method: 'PATCH', body: { title: 'x' } });
    assert.equal(patch.status, 405);
    assert.equal(patch.headers.get('allow'), 'GET, PUT, DELETE');
    assert.equal((await call('/v1/knowledge/kb_doesnotexist123', { method: 'DELETE' })).status, 404);
    assert.equal((await call('/v1/knowledge/search', { method: 'POST', body: {} })).status, 405);
  });

  // Found by fuzz.test.ts: a lone surrogate in a jsonb field (tags) was a 500 from PostgreSQL.
  it('stores lone surrogates as U+FFFD in every field, jsonb ones included', async () => {
    const raw = '{"title":"cut \\ud83d","content":"half \\ude00 emoji","tags":["\\ud800tag"]}';
    const res = await call('/v1/knowledge', { body: raw });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.title, 'cut \uFFFD');
    assert.equal(res.body.data.content, 'half \uFFFD emoji');
    assert.deepEqual(res.body.data.tags, ['\uFFFDtag']);
    const put = await call(`/v1/knowledge/${res.body.data.id}`, { method: 'PUT', body: '{"tags":["\\udfff","ok \\ud83d\\ude00"]}' });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.data.tags, ['\uFFFD', 'ok 😀']);
    const proto = await call('/v1/knowledge', { body: '{"title":"t","content":"c","__proto__":{"x":1}}' });
    assert.equal(proto.body.error.code, 'unknown_parameter');
  });
});

describe('knowledge search', () => {
  let search: Caller;
  before(async () => {
    search = caller(service, (await service.createAccount()).apiKey);
    const entries = [
      { title: 'Install the widget', content: 'Installing takes one script tag. Add the widget to your page and set the bot id.', tags: ['setup'] },
      { title: 'Pricing plans', content: 'The free plan includes 1,000 messages per month. Paid plans start at 20 dollars.', tags: ['billing'] },
      { title: 'Theming', content: 'Colours and fonts follow CSS custom properties; the widget installs no global styles.', tags: ['design'] },
      { title: 'Devoluciones', content: 'Las devoluciones de los envíos se aceptan durante 30 días.', language: 'es', tags: ['billing'] },
      { title: 'Passwort', content: 'Wenn Sie Ihr Passwort vergessen haben, können Sie es zurücksetzen. Die Zahlungen werden monatlich abgerechnet.', language: 'de' },
    ];
    for (const e of entries) await create(e, search);
  });

  it('finds the install entry for a typo query, ranked first, with a snippet', async () => {
    const res = await search('/v1/knowledge/search?q=instal%20widgit');
    assert.equal(res.status, 200);
    assert.equal(res.body.data.query, 'instal widgit');
    const [first] = res.body.data.items;
    assert.equal(first.title, 'Install the widget');
    assert.ok(first.score > 0);
    assert.match(first.snippet, /widget/i);
    assert.deepEqual(first.tags, ['setup']);
    const scores = res.body.data.items.map((h: { score: number }) => h.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  });

  it('matches prefixes and boosts titles', async () => {
    const res = await search('/v1/knowledge/search?q=pric');
    assert.equal(res.body.data.items[0].title, 'Pricing plans');
    // "widget" is in the title of one entry and only in the content of another: the title wins.
    const widget = await search('/v1/knowledge/search?q=widget&language=en');
    assert.equal(widget.body.data.items[0].title, 'Install the widget');
  });

  it('stems per language and ignores diacritics (es, de)', async () => {
    const es = await search('/v1/knowledge/search?q=devoluci%C3%B3n%20envio&language=es');
    assert.equal(es.body.data.items[0]?.title, 'Devoluciones');
    const de = await search(`/v1/knowledge/search?q=${encodeURIComponent('Zahlung vergessene Passwörter')}&language=de`);
    assert.equal(de.body.data.items[0]?.title, 'Passwort');
    // A language filter excludes other languages' entries.
    const onlyEn = await search('/v1/knowledge/search?q=devoluciones&language=en');
    assert.equal(onlyEn.body.data.items.length, 0);
  });

  it('filters by tags and honours limit', async () => {
    const billing = await search('/v1/knowledge/search?q=plan%20devoluciones%20widget&tags=billing');
    const titles = billing.body.data.items.map((h: { title: string }) => h.title).sort();
    assert.deepEqual(titles, ['Devoluciones', 'Pricing plans']);
    const one = await search('/v1/knowledge/search?q=widget&limit=1');
    assert.equal(one.body.data.items.length, 1);
  });

  it('validates the query', async () => {
    assert.equal((await search('/v1/knowledge/search')).body.error.param, 'q');
    assert.equal((await search('/v1/knowledge/search?q=')).body.error.code, 'validation_failed');
    assert.equal((await search(`/v1/knowledge/search?q=${'a'.repeat(501)}`)).body.error.code, 'validation_failed');
    assert.equal((await search('/v1/knowledge/search?q=x&limit=51')).body.error.param, 'limit');
    assert.equal((await search('/v1/knowledge/search?q=x&language=xx')).body.error.param, 'language');
    assert.equal((await search('/v1/knowledge/search?q=x&sort=asc')).body.error.code, 'unknown_parameter');
  });

  it('never returns another account\'s entries', async () => {
    const stranger = caller(service, (await service.createAccount()).apiKey);
    const res = await stranger('/v1/knowledge/search?q=widget');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.items, []);
    const list = await search('/v1/knowledge?limit=200');
    const id = list.body.data.items[0].id;
    assert.equal((await stranger(`/v1/knowledge/${id}`)).status, 404);
    assert.equal((await stranger(`/v1/knowledge/${id}`, { method: 'PUT', body: { title: 'mine' } })).status, 404);
  });

  it('reflects an update at once: the old text is no longer found, the new one is', async () => {
    const entry = await create({ title: 'Shipping', content: 'Parcels travel by zeppelin.' }, search);
    assert.equal((await search('/v1/knowledge/search?q=zeppelin')).body.data.items[0]?.entry_id, entry.id);
    await search(`/v1/knowledge/${entry.id}`, { method: 'PUT', body: { content: 'Parcels travel by bicycle courier.' } });
    assert.deepEqual((await search('/v1/knowledge/search?q=zeppelin')).body.data.items, []);
    assert.equal((await search('/v1/knowledge/search?q=bicycle')).body.data.items[0]?.entry_id, entry.id);
  });

  it('points the snippet at the matching passage of a long entry', async () => {
    const filler = 'General remarks about nothing in particular, repeated for length. '.repeat(40);
    const content = `${filler}\n\nThe secret ingredient is saffron from the hills.\n\n${filler}`;
    const entry = await create({ title: 'Long cookbook', content }, search);
    const res = await search('/v1/knowledge/search?q=saffron');
    const hits = res.body.data.items.filter((h: { entry_id: string }) => h.entry_id === entry.id);
    assert.equal(hits.length, 1, 'one hit per entry, not one per passage');
    assert.match(hits[0].snippet, /saffron/);
  });
});

describe('search index ranking', () => {
  const entry = (id: string, title: string, content: string, tags: string[] = []) => ({ id, title, content, tags, language: 'en', source: null });

  it('applies the tag filter before the limit, not after', () => {
    const strong = Array.from({ length: 20 }, (_, i) => entry(`kb_s${i}`, `Refund ${i}`, 'Refund refund refund policy.'));
    const index = new KnowledgeIndex([...strong, entry('kb_tagged', 'Other', 'A refund is possible.', ['billing'])]);
    assert.deepEqual(index.search({ q: 'refund', limit: 1, tags: ['billing'] }).map((h) => h.entry_id), ['kb_tagged']);
    assert.equal(index.search({ q: 'refund', limit: 5 }).length, 5);
  });

  it('ranks a passage matching more distinct query terms above one repeating a single term', () => {
    const index = new KnowledgeIndex([
      entry('kb_one', 'Notes', 'Shipping shipping shipping shipping shipping.'),
      entry('kb_both', 'Notes', 'Shipping and refund.'),
    ]);
    assert.deepEqual(index.search({ q: 'shipping refund', limit: 5 }).map((h) => h.entry_id), ['kb_both', 'kb_one']);
  });

  it('starts every query from zero (no score left over from the previous one)', () => {
    const index = new KnowledgeIndex([entry('kb_a', 'Alpha', 'Alpha text.'), entry('kb_b', 'Beta', 'Beta text.')]);
    const alpha = index.search({ q: 'alpha', limit: 5 });
    const beta = index.search({ q: 'beta', limit: 5 });
    assert.deepEqual(beta.map((h) => h.entry_id), ['kb_b']);
    assert.deepEqual(index.search({ q: 'alpha', limit: 5 }), alpha);
  });
});

describe('passage chunking', () => {
  it('keeps passages near 800 characters with offsets into the original text', () => {
    const text = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} says something useful.`).join(' ');
    const passages = chunk(text);
    assert.ok(passages.length > 1);
    for (const p of passages) {
      assert.ok(p.text.length <= 1000, `passage of ${p.text.length}`);
      assert.equal(text.slice(p.offset, p.offset + p.text.length), p.text);
    }
    assert.deepEqual(chunk('short'), [{ offset: 0, text: 'short' }]);
  });
});

describe('index consistency across restarts', () => {
  it('finds an entry written by a previous process and not a stale one', async () => {
    const database = await testDatabase({ persistent: true });
    try {
      const first = await createService({ ...database.options, seed: false, logLevel: 'silent', apiKey: 'aicw_sk_restart-test-key-0001' });
      const call1 = caller(first, 'aicw_sk_restart-test-key-0001');
      const entry = (await call1('/v1/knowledge', { body: { title: 'Opening hours', content: 'We open at nine o\'clock.' } })).body.data;
      assert.equal((await call1('/v1/knowledge/search?q=opening')).body.data.items[0]?.entry_id, entry.id);
      await first.close();

      const second = await createService({ ...database.options, seed: false, logLevel: 'silent', apiKey: 'aicw_sk_restart-test-key-0001' });
      const call2 = caller(second, 'aicw_sk_restart-test-key-0001');
      assert.equal((await call2('/v1/knowledge/search?q=opening%20hours')).body.data.items[0]?.entry_id, entry.id);
      // A second process writing to the same database invalidates the first one's index (kb_revision).
      await call2(`/v1/knowledge/${entry.id}`, { method: 'PUT', body: { title: 'Closing time', content: 'We close at six.' } });
      assert.deepEqual((await call2('/v1/knowledge/search?q=opening')).body.data.items, []);
      await second.close();
    } finally {
      await database.cleanup();
    }
  });

  it('rebuilds when another process bumps kb_revision behind this one\'s back', async () => {
    const api = caller(service, (await service.createAccount()).apiKey);
    const entry = (await api('/v1/knowledge', { body: { title: 'Parking', content: 'Park behind the red barn.' } })).body.data;
    assert.equal((await api('/v1/knowledge/search?q=barn')).body.data.items.length, 1);
    // Simulate another process: change the row and bump the revision directly in the database.
    await service.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('knowledge_entries').set({ content: 'Park in the blue garage.' }).where('id', '=', entry.id).execute();
      const acct = await trx.selectFrom('knowledge_entries').select('account_id').where('id', '=', entry.id).executeTakeFirstOrThrow();
      await trx
        .updateTable('accounts')
        .set((eb) => ({ kb_revision: eb('kb_revision', '+', '1') }))
        .where('id', '=', acct.account_id)
        .execute();
    });
    assert.deepEqual((await api('/v1/knowledge/search?q=barn')).body.data.items, []);
    assert.equal((await api('/v1/knowledge/search?q=garage')).body.data.items.length, 1);
  });
});
