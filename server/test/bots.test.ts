// Bots end to end over a real in-memory PGlite: validation, tenancy, training, replies, origins.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clientFor, shopTraining, startTestService, type TestClient } from './support/core.ts';
import { trainingStarted } from './support/hold-training.ts';

let api: TestClient;
let other: TestClient;

before(async () => {
  api = await startTestService();
  other = clientFor(api.service, (await api.service.createAccount()).apiKey);
});
after(() => api.service.close());

async function createBot(body: Record<string, unknown>, client = api) {
  const { res, body: envelope } = await client.json('/v1/bots', { method: 'POST', body });
  assert.equal(res.status, 201, JSON.stringify(envelope));
  return envelope.data;
}

describe('POST /v1/bots validation', () => {
  const cases: [string, unknown, string, string | undefined][] = [
    ['missing name', { description: 'x' }, 'validation_failed', 'name'],
    ['empty name', { name: '' }, 'validation_failed', 'name'],
    ['long name', { name: 'x'.repeat(101) }, 'validation_failed', 'name'],
    ['long description', { name: 'a', description: 'x'.repeat(1001) }, 'validation_failed', 'description'],
    ['unsupported language', { name: 'a', language: 'xx' }, 'validation_failed', 'language'],
    ['unknown field', { name: 'a', colour: 'red' }, 'unknown_parameter', 'colour'],
    ['too many quick replies', { name: 'a', quick_replies: Array(11).fill('q') }, 'validation_failed', 'quick_replies'],
    ['long quick reply', { name: 'a', quick_replies: ['x'.repeat(101)] }, 'validation_failed', 'quick_replies.0'],
    ['bad intent name', { name: 'a', training: { intents: [{ name: 'Bad Name', examples: ['x'], responses: ['y'] }] } }, 'validation_failed', 'training.intents.0.name'],
    ['intent without examples', { name: 'a', training: { intents: [{ name: 'x', examples: [], responses: ['y'] }] } }, 'validation_failed', 'training.intents.0.examples'],
    ['undeclared entity', { name: 'a', training: { intents: [{ name: 'x', examples: ['buy {thing}'], responses: ['y'] }] } }, 'validation_failed', 'training.intents.0.examples.0'],
    ['bad regex', { name: 'a', training: { intents: [{ name: 'x', examples: ['a'], responses: ['y'] }], entities: [{ name: 'n', type: 'regex', pattern: '(' }] } }, 'validation_failed', 'training.entities.0.pattern'],
    // `(a+)+$` is harmless on the linear-time engine (redos.test.ts); a backreference cannot run on it.
    ['regex the linear-time engine cannot run', { name: 'a', training: { intents: [{ name: 'x', examples: ['a'], responses: ['y'] }], entities: [{ name: 'n', type: 'regex', pattern: '(a+)\\1$' }] } }, 'validation_failed', 'training.entities.0.pattern'],
    ['regex entity with values', { name: 'a', training: { intents: [{ name: 'x', examples: ['a'], responses: ['y'] }], entities: [{ name: 'n', type: 'regex', pattern: 'a', values: [{ value: 'b' }] }] } }, 'validation_failed', 'training.entities.0'],
    ['unknown entity field', { name: 'a', training: { intents: [{ name: 'x', examples: ['a'], responses: ['y'] }], entities: [{ name: 'n', type: 'list', values: [{ value: 'b' }], extra: 1 }] } }, 'unknown_parameter', 'training.entities.0.extra'],
    ['website channel without origins', { name: 'a', channels: [{ type: 'website' }] }, 'validation_failed', 'channels.0.allowed_origins'],
    ['bad origin', { name: 'a', channels: [{ type: 'website', allowed_origins: ['example.com'] }] }, 'validation_failed', 'channels.0.allowed_origins.0'],
    ['javascript: avatar', { name: 'a', avatar_url: 'javascript:alert(1)' }, 'validation_failed', 'avatar_url'],
    ['data: avatar that is not an image', { name: 'a', avatar_url: 'data:text/html,<b>x</b>' }, 'validation_failed', 'avatar_url'],
    ['relative avatar', { name: 'a', avatar_url: '/bot.png' }, 'validation_failed', 'avatar_url'],
    ['huge avatar', { name: 'a', avatar_url: `data:image/png;base64,${'A'.repeat(100_000)}` }, 'validation_failed', 'avatar_url'],
    ['colour by name', { name: 'a', appearance: { color: 'red' } }, 'validation_failed', 'appearance.color'],
    ['three-digit colour', { name: 'a', appearance: { color: '#f00' } }, 'validation_failed', 'appearance.color'],
    ['colour with CSS after it', { name: 'a', appearance: { color: '#ff0000;background:url(x)' } }, 'validation_failed', 'appearance.color'],
    ['unknown corner', { name: 'a', appearance: { position: 'top-left' } }, 'validation_failed', 'appearance.position'],
    ['unknown launcher icon', { name: 'a', appearance: { launcher_icon: 'rocket' } }, 'validation_failed', 'appearance.launcher_icon'],
    ['http launcher icon', { name: 'a', appearance: { launcher_icon: 'http://cdn.example.com/i.png' } }, 'validation_failed', 'appearance.launcher_icon'],
    ['javascript: launcher icon', { name: 'a', appearance: { launcher_icon: 'javascript:alert(1)' } }, 'validation_failed', 'appearance.launcher_icon'],
    ['launcher icon over 2,048 characters', { name: 'a', appearance: { launcher_icon: `https://cdn.example.com/${'i'.repeat(2025)}` } }, 'validation_failed', 'appearance.launcher_icon'],
    ['display name over 60 characters', { name: 'a', appearance: { bot_name: 'x'.repeat(61) } }, 'validation_failed', 'appearance.bot_name'],
    ['welcome over 500 characters', { name: 'a', appearance: { welcome_message: 'x'.repeat(501) } }, 'validation_failed', 'appearance.welcome_message'],
    ['unknown appearance field', { name: 'a', appearance: { font: 'Comic Sans' } }, 'unknown_parameter', 'appearance.font'],
    ['appearance that is no object', { name: 'a', appearance: '#ff0000' }, 'validation_failed', 'appearance'],
  ];
  for (const [name, body, code, param] of cases) {
    it(`answers ${code} for ${name}`, async () => {
      const { res, body: envelope } = await api.json('/v1/bots', { method: 'POST', body });
      assert.equal(res.status, 400);
      assert.equal(envelope.success, false);
      assert.equal(envelope.error.code, code, JSON.stringify(envelope.error));
      if (param) assert.equal(envelope.error.param, param, JSON.stringify(envelope.error));
    });
  }

  it('answers invalid_json for a broken body', async () => {
    const res = await api.call('/v1/bots', { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.code, 'invalid_json');
  });

  it('answers unsupported_media_type for a non-JSON body', async () => {
    const res = await api.call('/v1/bots', { method: 'POST', body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 415);
    assert.equal((await res.json()).error.code, 'unsupported_media_type');
  });

  it('answers 405 with Allow for an unsupported method', async () => {
    const res = await api.call('/v1/bots', { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, POST');
  });
});

describe('bots CRUD and tenancy', () => {
  it('creates an untrained bot with defaults and reads it back', async () => {
    const bot = await createBot({ name: 'Plain' });
    assert.match(bot.id, /^bot_/);
    assert.equal(bot.language, 'en');
    assert.equal(bot.status, 'untrained');
    assert.equal(bot.description, '');
    assert.deepEqual(bot.training, { intents: [] });
    assert.equal(bot.trained_at, null);
    const { res, body } = await api.json(`/v1/bots/${bot.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(body.data, bot);
  });

  it('hides another account\'s bot behind 404 resource_not_found', async () => {
    const bot = await createBot({ name: 'Mine' });
    for (const [path, init] of [
      [`/v1/bots/${bot.id}`, {}],
      [`/v1/bots/${bot.id}`, { method: 'PUT', body: { name: 'Stolen' } }],
      [`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'hi', user_id: 'u1' } }],
    ] as const) {
      const { res, body } = await other.json(path, init);
      assert.equal(res.status, 404, path);
      assert.equal(body.error.code, 'resource_not_found');
      assert.equal(body.error.param, 'bot_id');
    }
    assert.equal((await api.json(`/v1/bots/${bot.id}`)).body.data.name, 'Mine');
    const list = (await other.json('/v1/bots')).body.data;
    assert.ok(!list.items.some((b: { id: string }) => b.id === bot.id));
  });

  it('answers 404 for an id that cannot exist', async () => {
    const { res, body } = await api.json('/v1/bots/not-an-id');
    assert.equal(res.status, 404);
    assert.equal(body.error.param, 'bot_id');
  });

  it('lists newest first with working cursors', async () => {
    const tenant = clientFor(api.service, (await api.service.createAccount()).apiKey);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createBot({ name: `B${i}` }, tenant)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const { body } = await tenant.json(`/v1/bots${query}`);
      seen.push(...body.data.items.map((b: { id: string }) => b.id));
      assert.equal(body.data.has_more, body.data.next_cursor !== null);
      cursor = body.data.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse());
  });

  it('rejects a forged cursor and a bad limit', async () => {
    assert.equal((await api.json('/v1/bots?cursor=abc')).body.error.param, 'cursor');
    const { res, body } = await api.json('/v1/bots?limit=0');
    assert.equal(res.status, 400);
    assert.equal(body.error.param, 'limit');
  });

  it('keeps an avatar (http(s) or data:image), changes and clears it', async () => {
    const bot = await createBot({ name: 'Face' });
    assert.equal(bot.avatar_url, null);
    const inline = 'data:image/svg+xml;utf8,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22/%3E';
    const set = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { avatar_url: inline } });
    assert.equal(set.body.data.avatar_url, inline);
    assert.equal((await api.json(`/v1/bots/${bot.id}`)).body.data.avatar_url, inline);
    const web = await createBot({ name: 'Face 2', avatar_url: 'https://cdn.example.com/a.png' });
    assert.equal(web.avatar_url, 'https://cdn.example.com/a.png');
    const cleared = await api.json(`/v1/bots/${web.id}`, { method: 'PUT', body: { avatar_url: null } });
    assert.equal(cleared.body.data.avatar_url, null);
  });

  it("keeps the widget's appearance at its bounds, replaces it whole, and clears it with {}", async () => {
    const longest = `https://cdn.example.com/${'i'.repeat(2048 - 24)}`;
    assert.equal(longest.length, 2048);
    const appearance = { color: '#0F766e', position: 'bottom-left', launcher_icon: longest, bot_name: 'x'.repeat(60), welcome_message: 'w'.repeat(500) };
    const bot = await createBot({ name: 'Looks', appearance });
    assert.deepEqual(bot.appearance, appearance);
    assert.deepEqual((await createBot({ name: 'Plain' })).appearance, {});
    const icon = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { appearance: { launcher_icon: 'help' } } });
    assert.equal(icon.res.status, 200, JSON.stringify(icon.body));
    assert.deepEqual(icon.body.data.appearance, { launcher_icon: 'help' });
    const cleared = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { appearance: {} } });
    assert.deepEqual(cleared.body.data.appearance, {});
    assert.deepEqual((await api.json(`/v1/bots/${bot.id}`)).body.data.appearance, {});
  });

  it('updates partially and validates updates', async () => {
    const bot = await createBot({ name: 'Before', description: 'keep me' });
    const { body } = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { name: 'After', quick_replies: ['Hi'] } });
    assert.equal(body.data.name, 'After');
    assert.equal(body.data.description, 'keep me');
    assert.deepEqual(body.data.quick_replies, ['Hi']);
    assert.equal(body.data.status, 'untrained');
    const empty = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: {} });
    assert.equal(empty.res.status, 400);
    const unknown = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { status: 'ready' } });
    assert.equal(unknown.body.error.code, 'unknown_parameter');
    assert.equal(unknown.body.error.param, 'status');
  });
});

describe('training and messages', () => {
  let bot: { id: string; status: string; trained_at: string | null };

  before(async () => {
    bot = await createBot({ name: 'Shop', training: shopTraining, quick_replies: ['Pricing', 'Talk to a human'] });
  });

  it('trains on create and answers ready with trained_at', () => {
    assert.equal(bot.status, 'ready');
    assert.ok(bot.trained_at && !Number.isNaN(Date.parse(bot.trained_at)));
  });

  it('answers the matched intent with its list entity filled in', async () => {
    const { res, body } = await api.json(`/v1/bots/${bot.id}/messages`, {
      method: 'POST',
      body: { message: 'how do I install it with reactjs', user_id: 'alice' },
    });
    assert.equal(res.status, 200);
    const reply = body.data;
    assert.equal(reply.intent, 'install');
    assert.equal(reply.fallback, false);
    assert.ok(reply.confidence >= 0.7);
    assert.equal(reply.message.content, 'Here is how to install it in react.');
    assert.deepEqual(reply.entities, [{ entity: 'framework', value: 'react', text: 'reactjs' }]);
    assert.equal(reply.message.source, 'intent');
    assert.equal(reply.user_message.content, 'how do I install it with reactjs');
    assert.equal(reply.user_message.role, 'user');
    assert.equal(reply.message.conversation_id, reply.conversation_id);
  });

  it('fills a regex entity and offers the intent suggestions', async () => {
    const order = (await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'track order ORD-123456', user_id: 'alice' } })).body.data;
    assert.equal(order.intent, 'order.status');
    assert.equal(order.message.content, 'Checking order ORD-123456 for you.');
    const hello = (await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'hello there', user_id: 'alice' } })).body.data;
    assert.equal(hello.intent, 'greeting');
    assert.deepEqual(hello.suggestions, ['Pricing', 'Install']);
    assert.deepEqual(hello.message.suggestions, ['Pricing', 'Install']);
  });

  it('falls back below the threshold with the fallback response and quick replies', async () => {
    const { body } = await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'what is the weather on mars', user_id: 'bob' } });
    const reply = body.data;
    assert.equal(reply.fallback, true);
    assert.equal(reply.intent, null);
    assert.ok(reply.confidence < 0.7);
    assert.equal(reply.message.content, 'Sorry, I did not get that.');
    assert.equal(reply.message.source, 'fallback');
    assert.deepEqual(reply.suggestions, ['Pricing', 'Talk to a human']);
  });

  it('keeps one open conversation per user and stores both messages', async () => {
    const send = async (user: string, message: string) =>
      (await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message, user_id: user } })).body.data;
    const first = await send('carol', 'hello');
    const second = await send('carol', 'pricing plans');
    const stranger = await send('dave', 'hello');
    assert.equal(first.conversation_id, second.conversation_id);
    assert.notEqual(first.conversation_id, stranger.conversation_id);
    const history = (await api.json(`/v1/chat/history?conversation_id=${first.conversation_id}`)).body.data;
    assert.deepEqual(
      history.items.map((m: { role: string; content: string }) => `${m.role}:${m.content}`),
      ['user:hello', 'assistant:Hello! How can I help?', 'user:pricing plans', 'assistant:It is free and open source.'],
    );
  });

  it('stores analytics fields on the assistant message', async () => {
    const reply = (await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'is it free', user_id: 'erin' } })).body.data;
    const row = await api.service.deps.db.selectFrom('messages').selectAll().where('id', '=', reply.message.id).executeTakeFirstOrThrow();
    assert.equal(row.source, 'intent');
    assert.equal(row.intent, 'pricing');
    assert.ok(row.confidence! >= 0.7);
    assert.ok(row.latency_ms !== null && row.latency_ms >= 0);
  });

  it('retrains on PUT in another language and answers with the new model', async () => {
    const training = {
      intents: [
        { name: 'gruss', examples: ['hallo', 'guten tag', 'guten morgen', 'servus'], responses: ['Hallo! Wie kann ich helfen?'] },
        { name: 'preis', examples: ['was kostet das', 'wie teuer ist es', 'preise bitte', 'ist es kostenlos'], responses: ['Es ist kostenlos.'] },
      ],
    };
    const put = await api.json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { language: 'de', training } });
    assert.equal(put.res.status, 200);
    assert.equal(put.body.data.status, 'ready');
    assert.equal(put.body.data.language, 'de');
    assert.ok(Date.parse(put.body.data.trained_at) >= Date.parse(bot.trained_at!));
    const reply = (await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'Was kostet das?', user_id: 'fritz' } })).body.data;
    assert.equal(reply.intent, 'preis');
    assert.equal(reply.message.content, 'Es ist kostenlos.');
    const miss = (await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body: { message: 'Wo ist der Bahnhof von Mars?', user_id: 'fritz' } })).body.data;
    assert.equal(miss.fallback, true);
    // the default German fallback (no fallback responses given), the same as /v1/chat answers for this bot
    assert.match(miss.message.content, /Das weiß ich noch nicht/);
  });

  it('an untrained bot answers with the fallback', async () => {
    const plain = await createBot({ name: 'Empty', quick_replies: ['Start'] });
    const reply = (await api.json(`/v1/bots/${plain.id}/messages`, { method: 'POST', body: { message: 'hello', user_id: 'u' } })).body.data;
    assert.equal(reply.fallback, true);
    assert.deepEqual(reply.suggestions, ['Start']);
  });

  it('validates the message body', async () => {
    const cases: [unknown, string, string][] = [
      [{ user_id: 'u' }, 'validation_failed', 'message'],
      [{ message: 'x'.repeat(4001), user_id: 'u' }, 'validation_failed', 'message'],
      [{ message: 'hi', user_id: 'has space' }, 'validation_failed', 'user_id'],
      [{ message: 'hi', user_id: 'u', extra: true }, 'unknown_parameter', 'extra'],
    ];
    for (const [body, code, param] of cases) {
      const { res, body: envelope } = await api.json(`/v1/bots/${bot.id}/messages`, { method: 'POST', body });
      assert.equal(res.status, 400);
      assert.equal(envelope.error.code, code);
      assert.equal(envelope.error.param, param);
    }
  });
});

describe('website channel origin check', () => {
  it('refuses a foreign origin that is not listed, allows listed and same origin', async () => {
    const bot = await createBot({ name: 'Site', channels: [{ type: 'website', allowed_origins: ['https://shop.example'] }] });
    const send = (origin?: string) =>
      api.json(`/v1/bots/${bot.id}/messages`, {
        method: 'POST',
        body: { message: 'hi', user_id: 'web' },
        headers: origin ? { origin } : {},
      });
    const denied = await send('https://evil.example');
    assert.equal(denied.res.status, 403);
    assert.equal(denied.body.error.code, 'origin_not_allowed');
    assert.equal((await send('https://shop.example')).res.status, 200);
    assert.equal((await send('http://127.0.0.1')).res.status, 200); // the service's own origin
    assert.equal((await send()).res.status, 200); // server to server
  });

  it('allows any origin when the list is empty', async () => {
    const bot = await createBot({ name: 'Open', channels: [{ type: 'website', allowed_origins: [] }] });
    const { res } = await api.json(`/v1/bots/${bot.id}/messages`, {
      method: 'POST',
      body: { message: 'hi', user_id: 'web' },
      headers: { origin: 'https://anyone.example' },
    });
    assert.equal(res.status, 200);
  });
});

describe('training never blocks the event loop', () => {
  it('answers another request while a large training runs', async () => {
    const intents = Array.from({ length: 120 }, (_, i) => ({
      name: `topic_${i}`,
      examples: Array.from({ length: 25 }, (_, j) => `question number ${j} about topic ${i} word${i}x${j} thing${(i * 7 + j) % 97}`),
      responses: [`Answer ${i}`],
    }));
    const bot = await createBot({ name: 'Big' });
    let trainingDoneAt = 0;
    const started = trainingStarted(api.service.deps.nlu);
    const training = api
      .json(`/v1/bots/${bot.id}`, { method: 'PUT', body: { training: { intents } } })
      .then((r) => {
        trainingDoneAt = performance.now();
        return r;
      });
    await started; // the worker thread trains from here on
    const status = await api.json(`/v1/bots/${bot.id}`);
    const listAnsweredAt = performance.now();
    assert.equal(status.res.status, 200);
    assert.equal(status.body.data.status, 'training'); // visible while the worker trains
    const done = await training;
    assert.equal(done.res.status, 200);
    assert.equal(done.body.data.status, 'ready');
    assert.ok(listAnsweredAt < trainingDoneAt, 'the GET was answered before training finished');
  });
});
