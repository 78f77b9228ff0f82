/// <reference types="node" />
// Attachments through the token proxy, against the REAL service: a visitor uploads a
// file as the token's user and for the token's bot (whatever the query says), reads it back with
// the service's inert file headers, sends it with a message; another visitor's token gets 404 for
// it; the proxy's own upload limit answers 413 before anything goes upstream; a bot-bound token
// cannot upload for another bot.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AiChatClient } from '../../src/client/index.js';
import { call, createBot, hostProxy, json, mint, SHOP, startService, type HostedProxy, type RunningService } from './proxy-harness.js';

let service: RunningService;
let apiKey: string;
let botId: string;
let host: HostedProxy;

/** A PNG's signature and IHDR chunk: what the service reads of an image. */
function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

function upload(token: string, file: Uint8Array<ArrayBuffer>, query = '') {
  return fetch(`${host.url}/v1/attachments${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: SHOP, 'content-type': 'application/octet-stream' },
    body: file,
  });
}

before(async () => {
  service = await startService();
  ({ apiKey } = await service.service.createAccount({ name: 'attachments via proxy' }));
  botId = await createBot(service.url, apiKey);
  const put = await fetch(`${service.url}/v1/bots/${botId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ attachments: { enabled: true } }),
  });
  assert.equal(put.status, 200);
  host = await hostProxy({ apiKey, upstream: service.url, botId, maxUploadBytes: 64 * 1024 });
});
after(async () => {
  await host?.close();
  await service?.close();
});

describe('attachments through the proxy', () => {
  it("upload, read back inert, send; another visitor's token reaches none of it", async () => {
    const alice = await mint(host.url, { user: 'alice', origin: SHOP });
    // the query may name another user: the token's wins
    const res = await upload(alice.token, png(12, 9), '?filename=shot.png&user_id=mallory');
    const body = await json(res);
    assert.equal(res.status, 201, JSON.stringify(body));
    const id = body.data.id as string;
    assert.deepEqual({ ...body.data, id: 'x' }, { id: 'x', filename: 'shot.png', content_type: 'image/png', size: 33, width: 12, height: 9 });

    const read = await call(host.url, alice.token, `/v1/attachments/${id}`, { origin: SHOP });
    assert.equal(read.status, 200);
    assert.deepEqual(new Uint8Array(await read.arrayBuffer()), png(12, 9));
    assert.equal(read.headers.get('content-type'), 'image/png');
    assert.match(read.headers.get('content-disposition') ?? '', /^inline; filename="shot.png"/);
    assert.equal(read.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(read.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.equal(read.headers.get('access-control-allow-origin'), SHOP);

    const bob = await mint(host.url, { user: 'bob', origin: SHOP });
    assert.equal((await call(host.url, bob.token, `/v1/attachments/${id}`, { origin: SHOP })).status, 404);
    assert.equal((await call(host.url, bob.token, `/v1/attachments/${id}`, { method: 'DELETE', origin: SHOP })).status, 404);
    const stolen = await call(host.url, bob.token, `/v1/bots/${botId}/messages`, { body: { message: 'mine now', attachments: [id] }, origin: SHOP });
    assert.equal(stolen.status, 404);

    const sent = await call(host.url, alice.token, `/v1/bots/${botId}/messages`, { body: { message: '', attachments: [id] }, origin: SHOP });
    const sentBody = await json(sent);
    assert.equal(sent.status, 200, JSON.stringify(sentBody));
    assert.equal(sentBody.data.user_message.attachments[0].id, id);
  });

  it('refuses what is not its to pass: a file over its limit, another bot, a malformed id', async () => {
    const { token } = await mint(host.url, { user: 'carol', origin: SHOP });
    const huge = await upload(token, new Uint8Array(65 * 1024));
    assert.equal(huge.status, 413);
    assert.equal((await json(huge)).error?.code, 'payload_too_large');
    const otherBot = await upload(token, png(1, 1), '?bot_id=bot_0000000000000000000000');
    assert.equal(otherBot.status, 403);
    const malformed = await call(host.url, token, '/v1/attachments/..%2Fbots', { origin: SHOP });
    assert.equal(malformed.status, 403);
    // the service judges the bytes, through the proxy too
    const page = await upload(token, new TextEncoder().encode('<!doctype html><script>alert(1)</script>') as Uint8Array<ArrayBuffer>);
    assert.equal(page.status, 415);
  });

  it('the typed client uploads, sends and downloads (docs/attachments.md), with the key and through a token', async () => {
    const client = new AiChatClient({ baseUrl: `${service.url}/v1`, apiKey });
    const progress: number[] = [];
    const photo = new Blob([png(20, 10)]);
    const { data: file } = await client.attachments.upload(photo, { bot_id: botId, user_id: 'visitor-42', filename: 'dent.png' }, {
      onProgress: (sent, total) => progress.push(sent / total),
    });
    assert.equal(file.width, 20);
    assert.equal(progress.at(-1), 1, 'the end is reported where fetch has no progress events');
    const { data: reply } = await client.bots.sendMessage(botId, { message: 'Is this damaged?', user_id: 'visitor-42', attachments: [file.id] });
    const blob = await client.attachments.download(reply.user_message.attachments![0]!.id, { user_id: 'visitor-42' });
    assert.equal(blob.type, 'image/png');
    assert.deepEqual(new Uint8Array(await blob.arrayBuffer()), png(20, 10));
    await assert.rejects(client.attachments.download(file.id, { user_id: 'someone-else' }), (error: { status?: number; code?: string }) => error.status === 404 && error.code === 'resource_not_found');

    // the widget's way: a token from the proxy, the same resource
    const dana = await mint(host.url, { user: 'dana', origin: SHOP });
    const viaToken = new AiChatClient({ baseUrl: `${host.url}/v1`, token: dana.token, headers: { origin: SHOP } });
    const { data: note } = await viaToken.attachments.upload(new TextEncoder().encode('order 4711'), { filename: 'order.txt' });
    assert.equal(note.content_type, 'text/plain');
    assert.equal(await (await viaToken.attachments.download(note.id)).text(), 'order 4711');
    assert.deepEqual((await viaToken.attachments.delete(note.id)).data, { id: note.id, deleted: true });
  });
});
