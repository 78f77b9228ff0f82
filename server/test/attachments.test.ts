// Attachments on the real service: a bot's limits (off by default; types, size, count),
// upload judged by the bytes (hostile files refused or served inert), who may read a file (its
// visitor, the account, nobody else), files sent with bot messages, /v1/chat and held messages, an
// operator's files in the inbox, the built-in responder's note and images to a model that takes them.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { clientFor, type TestClient } from './support/core.ts';
import type { DashboardClient } from './support/dashboard.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { bytes, gif, png } from './support/files.ts';
import { handoffSetup, json, openStream, startConversation } from './support/handoff.ts';
import { createTestService } from './support/test-database.ts';

let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let users = 0;
const nextUser = () => `att-visitor-${++users}`;

const text = (value: string) => new TextEncoder().encode(value);
const PDF = text('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');

function upload(file: Uint8Array, query: Record<string, string>, client: TestClient = api) {
  return client.json(`/v1/attachments?${new URLSearchParams(query)}`, { method: 'POST', body: file, headers: { 'content-type': 'image/png' } });
}

async function uploaded(file: Uint8Array, userId: string, filename = 'photo.png'): Promise<string> {
  const { res, body } = await upload(file, { bot_id: botId, user_id: userId, filename });
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.data.id;
}

function send(userId: string, message: string, attachments: string[]) {
  return api.json(`/v1/bots/${botId}/messages`, { method: 'POST', body: { message, user_id: userId, attachments } });
}

before(async () => {
  service = await createTestService({ maxAttachmentBytes: 64 * 1024 });
  ({ api, operator, botId } = await handoffSetup(service));
  const put = await api.json(`/v1/bots/${botId}`, { method: 'PUT', body: { attachments: { enabled: true, max_files: 2, max_file_bytes: 4096, types: ['image/png', 'image/gif', 'text/plain', 'application/pdf'] } } });
  assert.equal(put.res.status, 200, JSON.stringify(put.body));
});
after(async () => service?.close());

describe("a bot's attachment settings", () => {
  it('are off by default, set in parts, never above the service limit', async () => {
    const created = await api.json('/v1/bots', { method: 'POST', body: { name: 'Plain' } });
    assert.deepEqual(created.body.data.attachments, {
      enabled: false,
      types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'],
      max_file_bytes: 5 * 1024 * 1024,
      max_files: 3,
    });
    const plain = created.body.data.id;
    // a visitor's upload for a bot that takes none: 403, and nothing stored
    const refused = await upload(png(4, 4), { bot_id: plain, user_id: 'v' });
    assert.equal(refused.res.status, 403);
    assert.equal(refused.body.error.code, 'permission_denied');

    const partial = await api.json(`/v1/bots/${plain}`, { method: 'PUT', body: { attachments: { enabled: true, types: ['text/plain', 'image/png'] } } });
    assert.equal(partial.res.status, 200);
    assert.deepEqual(partial.body.data.attachments.types, ['image/png', 'text/plain'], 'canonical order');
    assert.equal(partial.body.data.attachments.max_files, 3, 'fields left out keep their value');
    const tooBig = await api.json(`/v1/bots/${plain}`, { method: 'PUT', body: { attachments: { max_file_bytes: 65 * 1024 } } });
    assert.equal(tooBig.res.status, 400);
    assert.equal(tooBig.body.error.param, 'attachments.max_file_bytes');
    const unknownType = await api.json(`/v1/bots/${plain}`, { method: 'PUT', body: { attachments: { types: ['image/svg+xml'] } } });
    assert.equal(unknownType.res.status, 400);
  });
});

describe('upload: the bytes decide', () => {
  it('stores an image with its size and a cleaned name, and answers its bytes back with inert headers', async () => {
    const user = nextUser();
    const file = png(40, 30);
    const { res, body } = await upload(file, { bot_id: botId, user_id: user, filename: '../../etc/\u202Egnp.exe' });
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.match(body.data.id, /^att_/);
    assert.deepEqual({ ...body.data, id: 'x' }, { id: 'x', filename: 'gnp.exe', content_type: 'image/png', size: file.length, width: 40, height: 30 });
    const read = await api.call(`/v1/attachments/${body.data.id}?user_id=${user}`);
    assert.equal(read.status, 200);
    assert.deepEqual(new Uint8Array(await read.arrayBuffer()), file);
    assert.equal(read.headers.get('content-type'), 'image/png');
    assert.match(read.headers.get('content-disposition')!, /^inline; filename="gnp.exe"/);
    assert.equal(read.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(read.headers.get('content-security-policy'), "default-src 'none'; sandbox");
  });

  it('refuses hostile and unwanted files with 415 or 413, and stores none of them', async () => {
    const user = nextUser();
    const cases: [string, Uint8Array, number, string][] = [
      ['an SVG with script', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 415, 'unsupported_media_type'],
      ['an HTML page named like an image', text('<!doctype html><script>alert(document.cookie)</script>'), 415, 'unsupported_media_type'],
      ['a zip (a zip bomb is never opened)', bytes([0x50, 0x4b, 0x03, 0x04], [20, 0, 0, 0, 8, 0]), 415, 'unsupported_media_type'],
      ['a type this bot does not take (JPEG)', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16]), 415, 'unsupported_media_type'],
      ['binary nonsense', bytes([0, 1, 2, 3, 0xfe, 0xff]), 415, 'unsupported_media_type'],
      ['a file over the bot limit', new Uint8Array(5000).fill(0x41), 413, 'payload_too_large'],
      ['an image header claiming gigapixels', png(100_000, 100_000), 413, 'payload_too_large'],
      ['an empty body', new Uint8Array(0), 400, 'validation_failed'],
    ];
    for (const [what, file, status, code] of cases) {
      const { res, body } = await upload(file, { bot_id: botId, user_id: user, filename: 'cat.png' });
      assert.equal(res.status, status, `${what}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, code, what);
      assert.doesNotMatch(JSON.stringify(body), /at .*\.ts:\d+/, 'no stack trace');
    }
    // a body over the service limit is cut off before it is read
    const huge = await upload(new Uint8Array(70 * 1024).fill(0x41), { bot_id: botId, user_id: user });
    assert.equal(huge.res.status, 413);
    // none of them is waiting to be sent: this visitor has nothing pending
    const sent = await send(user, 'hello', []);
    assert.equal(sent.res.status, 200);
  });

  it('serves a polyglot (a GIF that is also a script) only as an inert image, and text and PDF as downloads', async () => {
    const user = nextUser();
    const polyglot = await uploaded(gif(1, 1, '=1;alert(document.domain)//'), user, 'x.gif');
    const gifRead = await api.call(`/v1/attachments/${polyglot}?user_id=${user}`);
    assert.equal(gifRead.headers.get('content-type'), 'image/gif');
    assert.equal(gifRead.headers.get('x-content-type-options'), 'nosniff');
    assert.match(gifRead.headers.get('content-security-policy')!, /sandbox/);
    // text that looks like a page once past its first line is text, and downloads
    const note = await uploaded(text('notes\n<script>alert(1)</script>'), user, 'notes.html');
    const noteRead = await api.call(`/v1/attachments/${note}?user_id=${user}`);
    assert.equal(noteRead.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.match(noteRead.headers.get('content-disposition')!, /^attachment;/);
    const pdf = await uploaded(PDF, user, 'invoice.pdf');
    assert.match((await api.call(`/v1/attachments/${pdf}?user_id=${user}`)).headers.get('content-disposition')!, /^attachment; filename="invoice.pdf"/);
  });
});

describe('who may read a file', () => {
  it('its visitor and the account; not another visitor, another bot scope or another account', async () => {
    const user = nextUser();
    const id = await uploaded(png(2, 2), user);
    assert.equal((await api.call(`/v1/attachments/${id}`)).status, 200, 'the account');
    assert.equal((await api.call(`/v1/attachments/${id}?user_id=${user}&bot_id=${botId}`)).status, 200);
    const other = await api.json(`/v1/attachments/${id}?user_id=someone-else`);
    assert.equal(other.res.status, 404);
    assert.equal(other.body.error.code, 'resource_not_found');
    const otherBot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Other' } });
    assert.equal((await api.call(`/v1/attachments/${id}?user_id=${user}&bot_id=${otherBot.body.data.id}`)).status, 404);
    const stranger = clientFor(service, (await service.createAccount()).apiKey);
    assert.equal((await stranger.call(`/v1/attachments/${id}`)).status, 404);
    assert.equal((await stranger.call(`/v1/attachments/${id}`, { method: 'DELETE' })).status, 404);
    assert.equal((await upload(png(2, 2), { bot_id: botId, user_id: 'x' }, stranger)).res.status, 404, "another account's bot");
  });
});

describe('sending files with a message', () => {
  it('a bot message carries them; history shows them; each file is sent once', async () => {
    const user = nextUser();
    const a = await uploaded(png(3, 3), user, 'a.png');
    const b = await uploaded(text('order 4711'), user, 'order.txt');
    const { res, body } = await send(user, 'what about this?', [a, b]);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(body.data.user_message.attachments.map((f: { id: string }) => f.id), [a, b]);
    // the built-in responder reads words only, and says so
    assert.match(body.data.message.content, /can't open attached files/);
    const history = await api.json(`/v1/chat/history?conversation_id=${body.data.conversation_id}`);
    const stored = history.body.data.items.find((m: { id: string }) => m.id === body.data.user_message.id);
    assert.deepEqual(stored.attachments.map((f: { filename: string }) => f.filename), ['a.png', 'order.txt']);

    const again = await send(user, 'once more', [a]);
    assert.equal(again.res.status, 409);
    assert.equal(again.body.error.param, 'attachments.0');
    // a sent file stays with its message
    assert.equal((await api.call(`/v1/attachments/${a}?user_id=${user}`, { method: 'DELETE' })).status, 409);
  });

  it('a file alone is a message; no text and no file is not; limits and ownership are checked', async () => {
    const user = nextUser();
    const only = await uploaded(png(3, 3), user);
    const alone = await send(user, '', [only]);
    assert.equal(alone.res.status, 200, JSON.stringify(alone.body));
    assert.equal(alone.body.data.user_message.content, '');
    assert.match(alone.body.data.message.content, /can't open attached files/);
    const empty = await send(user, '', []);
    assert.equal(empty.res.status, 400);
    assert.equal(empty.body.error.param, 'message');

    const three = [await uploaded(png(1, 1), user), await uploaded(png(1, 1), user), await uploaded(png(1, 1), user)];
    const tooMany = await send(user, 'three', three);
    assert.equal(tooMany.res.status, 400);
    assert.equal(tooMany.body.error.param, 'attachments');
    const theirs = await send('someone-else', 'mine?', [three[0]!]);
    assert.equal(theirs.res.status, 404);
    assert.equal(theirs.body.error.param, 'attachments.0');
    const unknown = await send(user, 'ghost', ['att_0000000000000000000000']);
    assert.equal(unknown.res.status, 404);

    // removed before sending: gone
    const removed = await api.json(`/v1/attachments/${three[2]}?user_id=${user}`, { method: 'DELETE' });
    assert.deepEqual(removed.body.data, { id: three[2], deleted: true });
    assert.equal((await api.call(`/v1/attachments/${three[2]}?user_id=${user}`)).status, 404);
  });

  it('/v1/chat takes them with a bot, and refuses them without one', async () => {
    const user = nextUser();
    const id = await uploaded(png(5, 5), user);
    const withoutBot = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: 'look' }], user_id: user, attachments: [id] } });
    assert.equal(withoutBot.res.status, 403);
    const chat = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: '' }], bot_id: botId, user_id: user, attachments: [id] } });
    assert.equal(chat.res.status, 200, JSON.stringify(chat.body));
    const history = await api.json(`/v1/chat/history?conversation_id=${chat.body.data.conversation_id}`);
    assert.equal(history.body.data.items[0].attachments[0].id, id);
    const blankEarlier = await api.json('/v1/chat', { method: 'POST', body: { messages: [{ role: 'user', content: '' }, { role: 'user', content: 'hi' }], bot_id: botId } });
    assert.equal(blankEarlier.res.status, 400);
    assert.equal(blankEarlier.body.error.param, 'messages.0.content');
  });

  it('deleting the conversation deletes its files', async () => {
    const user = nextUser();
    const id = await uploaded(png(2, 2), user);
    const { body } = await send(user, 'keep this', [id]);
    assert.equal((await api.call(`/v1/conversations/${body.data.conversation_id}`, { method: 'DELETE' })).status, 200);
    assert.equal((await api.call(`/v1/attachments/${id}`)).status, 404);
  });
});

describe('files with a person', () => {
  it("the visitor's file reaches the inbox; the operator's reaches the visitor, and only them", async () => {
    const user = nextUser();
    const conversationId = await startConversation(api, botId, user);
    const inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
    try {
      assert.equal((await api.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: user } })).res.status, 200);
      assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
      const visitorEvents = await openStream(service.fetch, `http://127.0.0.1/v1/conversations/${conversationId}/events?user_id=${user}`, { authorization: `Bearer ${api.apiKey}` });
      try {
        // held for the person: stored with its file, no bot answer
        const photo = await uploaded(png(8, 8), user, 'damage.png');
        const held = await send(user, '', [photo]);
        assert.equal(held.body.data.handoff.held, true);
        // in both conversation lists a message of files alone reads as their names
        const listed = await operator.call('GET', '/dashboard/api/inbox');
        const mine = listed.body.data.items.find((item: { id: string }) => item.id === conversationId);
        assert.equal(mine.last_message.preview, '📎 damage.png');
        const { body: conversation } = await api.json(`/v1/conversations/${conversationId}`);
        assert.equal(conversation.data.last_message.preview, '📎 damage.png');
        let event = json(await inbox.next());
        while (event.role !== 'user') event = json(await inbox.next());
        assert.equal(event.attachments[0].id, photo);
        assert.equal((await operator.call('GET', `/dashboard/api/v1/attachments/${photo}`)).status, 200, 'the operator reads it');

        // the operator uploads for this conversation; unsent, the visitor cannot read it
        const up = await operator.call('POST', `/dashboard/api/v1/attachments?conversation_id=${conversationId}&filename=label.pdf`, { body: PDF });
        assert.equal(up.status, 201, JSON.stringify(up.body));
        const label = up.body.data.id;
        assert.equal((await api.call(`/v1/attachments/${label}?user_id=${user}`)).status, 404);
        const reply = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: '', attachments: [label] } });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        let live = json(await visitorEvents.next());
        while (live.role !== 'operator') live = json(await visitorEvents.next());
        assert.equal(live.attachments[0].filename, 'label.pdf');
        assert.equal((await api.call(`/v1/attachments/${label}?user_id=${user}`)).status, 200, 'sent: the visitor reads it');
        assert.equal((await api.call(`/v1/attachments/${label}?user_id=someone-else`)).status, 404);
        const blank = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: '  ' } });
        assert.equal(blank.status, 400);
        // an operator file of another conversation cannot be sent here
        const elsewhere = await startConversation(api, botId, nextUser());
        const foreign = await operator.call('POST', `/dashboard/api/v1/attachments?conversation_id=${elsewhere}`, { body: PDF });
        const misplaced = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'this one', attachments: [foreign.body.data.id] } });
        assert.equal(misplaced.status, 404);
      } finally {
        visitorEvents.close();
      }
    } finally {
      inbox.close();
    }
  });
});

describe('images to a model', () => {
  let fake: FakeOpenAi;
  let llmService: Service;
  before(async () => {
    fake = await startFakeOpenAi();
    llmService = await createTestService({ llm: { baseUrl: fake.baseUrl, model: 'stream', images: true } });
  });
  after(async () => {
    await llmService?.close();
    await fake?.close();
  });

  it('a model that takes images gets them as data URLs, and text files inline', async () => {
    const client = clientFor(llmService, (await llmService.createAccount()).apiKey);
    const bot = await client.json('/v1/bots', { method: 'POST', body: { name: 'Vision', attachments: { enabled: true } } });
    const bot_id = bot.body.data.id;
    const image = await upload(png(6, 6), { bot_id, user_id: 'u1', filename: 'a.png' }, client);
    const note = await upload(text('serial 42-A'), { bot_id, user_id: 'u1', filename: 'serial.txt' }, client);
    const sent = await client.json(`/v1/bots/${bot_id}/messages`, { method: 'POST', body: { message: 'what is this?', user_id: 'u1', attachments: [image.body.data.id, note.body.data.id] } });
    assert.equal(sent.res.status, 200, JSON.stringify(sent.body));
    const request = fake.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    const last = request.messages.at(-1)!;
    assert.ok(Array.isArray(last.content), JSON.stringify(last));
    const [textPart, imagePart] = last.content as [{ text: string }, { image_url: { url: string } }];
    assert.match(textPart.text, /what is this\?/);
    assert.match(textPart.text, /serial 42-A/);
    assert.equal(imagePart.image_url.url, `data:image/png;base64,${Buffer.from(png(6, 6)).toString('base64')}`);
  });
});
