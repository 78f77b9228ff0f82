// Attacks on uploads. Anonymous visitors filling the database: unsent uploads are bounded in bytes
// per visitor, per client address and per bot, every file of an account by its storage quota,
// checked and stored under one lock (concurrent uploads never both pass a quota only one fits),
// and unsent uploads expire. Images whose first header hides their real size (a GIF frame, a second
// JPEG frame, a WebP bitstream or animation frame larger than the canvas): the largest extent
// counts, and more than 50 megapixels answers 413.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { imageSize, MAX_IMAGE_PIXELS } from '../../../server/src/attachments/image-size.ts';
import { DEFAULT_ATTACHMENT_QUOTAS } from '../../../server/src/attachments/quotas.ts';
import { optionsFromEnv, resolveConfig } from '../../../server/src/config.ts';
import type { Service } from '../../../server/src/index.ts';
import { clientFor, type TestClient } from '../../../server/test/support/core.ts';
import {
  anmfChunk,
  bytes,
  gif,
  gifControlExtension,
  gifWithFrame,
  jpeg,
  jpegFrame,
  jpegSegment,
  png,
  riffChunk,
  vp8Chunk,
  vp8lChunk,
  vp8xChunk,
  webp,
} from '../../../server/test/support/files.ts';
import { createTestService } from '../../../server/test/support/test-database.ts';

const BOMB = 12_000; // 12,000 × 12,000 = 144 megapixels

/** A JPEG whose first frame is 1×1; after its scan (stuffed bytes, a restart), a second frame of `width` × `height`. */
const jpegWithSecondFrame = (width: number, height: number) =>
  bytes([0xff, 0xd8], jpegSegment(0xc0, jpegFrame(1, 1)), jpegSegment(0xda, [1, 1, 0, 0, 63, 0]), [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56], jpegSegment(0xc2, jpegFrame(width, height)), [0xff, 0xd9]);

describe('image size: the largest extent a decoder could allocate', () => {
  it('a GIF: every frame, at its offset, past the logical screen', () => {
    const tiny = gifWithFrame([1, 1], [BOMB, BOMB], { extension: gifControlExtension });
    assert.ok(tiny.length < 40, `a bomb of ${tiny.length} bytes`);
    assert.deepEqual(imageSize(tiny, 'image/gif'), { width: BOMB, height: BOMB });
    assert.deepEqual(imageSize(gifWithFrame([10, 10], [10, 10], { left: 9000, top: 9000 }), 'image/gif'), { width: 9010, height: 9010 }, 'placed far off the screen');
    assert.deepEqual(imageSize(gifWithFrame([320, 200], [100, 50]), 'image/gif'), { width: 320, height: 200 }, 'a frame inside the screen: the screen');
    assert.deepEqual(imageSize(gif(320, 200), 'image/gif'), { width: 320, height: 200 }, 'a file cut after its screen');
  });

  it('a JPEG: every start-of-frame, also after a scan', () => {
    assert.deepEqual(imageSize(jpegWithSecondFrame(BOMB, BOMB), 'image/jpeg'), { width: BOMB, height: BOMB });
    assert.deepEqual(imageSize(jpeg(4000, 3000), 'image/jpeg'), { width: 4000, height: 3000 });
    const afterEnd = bytes([...jpegWithSecondFrame(2, 2)], jpegSegment(0xc0, jpegFrame(BOMB, BOMB)));
    assert.deepEqual(imageSize(afterEnd, 'image/jpeg'), { width: 2, height: 2 }, 'nothing after the end of image is decoded');
  });

  it('a WebP: the canvas, each bitstream, each animation frame at its offset', () => {
    assert.deepEqual(imageSize(webp(vp8xChunk(1, 1), vp8lChunk(BOMB, BOMB)), 'image/webp'), { width: BOMB, height: BOMB }, 'a lossless bitstream larger than the canvas');
    assert.deepEqual(imageSize(webp(vp8xChunk(1, 1), vp8Chunk(BOMB, BOMB)), 'image/webp'), { width: BOMB, height: BOMB }, 'a lossy one');
    const animated = webp(vp8xChunk(1, 1, 0x02), riffChunk('ANIM', [0, 0, 0, 0, 0, 0]), anmfChunk(10_000, 10_000, 2, 2, vp8lChunk(BOMB, BOMB)));
    assert.deepEqual(imageSize(animated, 'image/webp'), { width: 10_000 + BOMB, height: 10_000 + BOMB }, 'a frame placed far off');
    assert.deepEqual(imageSize(webp(vp8xChunk(640, 480), vp8lChunk(640, 480)), 'image/webp'), { width: 640, height: 480 });
    assert.deepEqual(imageSize(webp(vp8xChunk(1, 1)).subarray(0, 30), 'image/webp'), { width: 1, height: 1 }, 'a canvas at the very end of the file');
  });

  it('never throws, and never reads past the file (fuzzed headers followed by random blocks)', () => {
    const headers: Array<[string, Uint8Array]> = [
      ['image/gif', bytes('GIF89a', [1, 0, 1, 0, 0, 0, 0])],
      ['image/jpeg', bytes([0xff, 0xd8])],
      ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WEBP')],
      ['image/png', png(1, 1)],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...headers), fc.uint8Array({ maxLength: 1024 }), ([type, header], rest) => {
        const size = imageSize(bytes([...header], [...rest]), type);
        if (size) assert.ok(Number.isInteger(size.width) && Number.isInteger(size.height));
      }),
      { numRuns: 3000 },
    );
  });
});

let service: Service;
let api: TestClient;
let botId: string;

const QUOTAS = { pendingBytesPerVisitor: 3000, pendingBytesPerIp: 5000, pendingBytesPerBot: 9000, storageBytesPerAccount: 20_000, pendingRetentionSeconds: 600 };

before(async () => {
  service = await createTestService({ maxAttachmentBytes: 64 * 1024, attachmentQuotas: QUOTAS });
  api = clientFor(service, (await service.createAccount()).apiKey);
  const bot = await api.json('/v1/bots', { method: 'POST', body: { name: 'Uploads', attachments: { enabled: true } } });
  assert.equal(bot.res.status, 201, JSON.stringify(bot.body));
  botId = bot.body.data.id;
});
after(async () => service?.close());

describe('upload: an image whose real size is hidden is refused as a bomb', () => {
  for (const [name, file] of [
    ['a GIF with a 1×1 screen and a 12000×12000 frame', gifWithFrame([1, 1], [BOMB, BOMB], { extension: gifControlExtension })],
    ['a JPEG with a second, larger frame', jpegWithSecondFrame(BOMB, BOMB)],
    ['a WebP whose bitstream is larger than its canvas', webp(vp8xChunk(1, 1), vp8lChunk(BOMB, BOMB))],
  ] as const) {
    it(name, async () => {
      const res = await api.json(`/v1/attachments?bot_id=${botId}&user_id=bomber&filename=tiny`, { method: 'POST', body: file });
      assert.equal(res.res.status, 413, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'payload_too_large');
      assert.match(res.body.error.message, new RegExp(String(MAX_IMAGE_PIXELS)));
    });
  }

  it('a GIF whose frames stay inside its screen is stored at the screen size', async () => {
    const res = await api.json(`/v1/attachments?bot_id=${botId}&user_id=artist&filename=anim.gif`, { method: 'POST', body: gifWithFrame([300, 200], [300, 200], { extension: gifControlExtension }) });
    assert.equal(res.res.status, 201, JSON.stringify(res.body));
    assert.deepEqual([res.body.data.width, res.body.data.height], [300, 200]);
  });
});

/** A text file of `size` bytes. */
const file = (size: number) => new TextEncoder().encode('a'.repeat(size));

/** A fresh account with a bot that takes files: each test counts its own bytes. */
async function tenant() {
  const client = clientFor(service, (await service.createAccount()).apiKey);
  const newBot = async () => (await client.json('/v1/bots', { method: 'POST', body: { name: 'Files', attachments: { enabled: true } } })).body.data.id as string;
  const bot = await newBot();
  /** An upload as the Node adapter hands it over: from a socket of address `ip`. */
  const upload = async (size: number, query: { user_id?: string; bot_id?: string }, ip = '198.51.100.1') => {
    const search = new URLSearchParams({ bot_id: bot, filename: 'notes.txt', ...query });
    const request = new Request(`http://127.0.0.1/v1/attachments?${search}`, { method: 'POST', body: file(size), headers: { authorization: `Bearer ${client.apiKey}` } });
    const res = await service.fetch(request, { incoming: { socket: { remoteAddress: ip } } });
    return { status: res.status, body: await res.json() };
  };
  return { client, bot, newBot, upload };
}

function assertRefused(answer: { status: number; body: any }, status: number, code: string, limit: number, whose?: string) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.success, false);
  assert.equal(answer.body.error.code, code);
  assert.match(answer.body.error.message, new RegExp(`at most ${limit} bytes`), 'the message names the limit');
  if (whose) assert.match(answer.body.error.message, new RegExp(whose));
}

describe('upload quotas: an anonymous visitor cannot fill the database', () => {
  it('are configured by environment variables, with defaults', () => {
    const config = resolveConfig(optionsFromEnv({ AI_CHAT_UPLOAD_QUOTA_VISITOR_BYTES: '1000', AI_CHAT_UPLOAD_QUOTA_IP_BYTES: '2000', AI_CHAT_UPLOAD_QUOTA_BOT_BYTES: '3000', AI_CHAT_STORAGE_QUOTA_BYTES: '4000', AI_CHAT_UPLOAD_RETENTION_SECONDS: '60' }));
    assert.deepEqual(config.attachmentQuotas, { pendingBytesPerVisitor: 1000, pendingBytesPerIp: 2000, pendingBytesPerBot: 3000, storageBytesPerAccount: 4000, pendingRetentionSeconds: 60 });
    const defaults = resolveConfig(optionsFromEnv({ AI_CHAT_UPLOAD_QUOTA_IP_BYTES: 'lots' })).attachmentQuotas;
    assert.deepEqual(defaults, DEFAULT_ATTACHMENT_QUOTAS, 'unset or unreadable: the defaults');
    assert.equal(defaults.pendingRetentionSeconds, 3600, 'unsent uploads are kept an hour');
  });

  it("a visitor's unsent uploads are bounded in bytes; a removed or sent one frees its share", async () => {
    const { client, bot, upload } = await tenant();
    const kept = [];
    for (let i = 0; i < 3; i++) kept.push(await upload(1000, { user_id: 'visitor' }));
    assert.deepEqual(kept.map((answer) => answer.status), [201, 201, 201]);
    assertRefused(await upload(1, { user_id: 'visitor' }), 409, 'upload_quota_exceeded', 3000, 'this visitor');
    assert.equal((await upload(1000, { user_id: 'someone-else' })).status, 201, 'another visitor has their own share');

    assert.equal((await client.call(`/v1/attachments/${kept[0]!.body.data.id}?user_id=visitor`, { method: 'DELETE' })).status, 200);
    const sent = await client.json(`/v1/bots/${bot}/messages`, { method: 'POST', body: { message: '', user_id: 'visitor', attachments: [kept[1]!.body.data.id] } });
    assert.equal(sent.res.status, 200, JSON.stringify(sent.body));
    assert.equal((await upload(2000, { user_id: 'visitor' })).status, 201, 'one removed, one sent: 2000 bytes free again');
  });

  it('visitors from one client address share its quota (new tokens do not help)', async () => {
    const { upload } = await tenant();
    for (const visitor of ['anon-1', 'anon-2']) assert.equal((await upload(2500, { user_id: visitor }, '203.0.113.9')).status, 201);
    assertRefused(await upload(1000, { user_id: 'anon-3' }, '203.0.113.9'), 409, 'upload_quota_exceeded', 5000, 'this client address');
    assert.equal((await upload(1000, { user_id: 'anon-3' }, '203.0.113.10')).status, 201, 'another address');
  });

  it("a bot's visitors together are bounded; another bot of the account is not", async () => {
    const { newBot, upload } = await tenant();
    for (let i = 0; i < 3; i++) assert.equal((await upload(3000, { user_id: `v${i}` }, `192.0.2.${i}`)).status, 201);
    assertRefused(await upload(1, { user_id: 'v9' }, '192.0.2.9'), 409, 'upload_quota_exceeded', 9000, 'this bot');
    assert.equal((await upload(1000, { user_id: 'v9', bot_id: await newBot() }, '192.0.2.9')).status, 201);
  });

  it("every file of an account, sent or not and an operator's too, counts against its storage quota", async () => {
    const { upload } = await tenant();
    for (let i = 0; i < 3; i++) assert.equal((await upload(6000, {})).status, 201, "an operator's files: no visitor quota");
    assert.equal((await upload(1000, { user_id: 'visitor' })).status, 201);
    assertRefused(await upload(1001, { user_id: 'visitor' }), 413, 'storage_quota_exceeded', 20_000);
    assertRefused(await upload(1001, {}), 413, 'storage_quota_exceeded', 20_000);
    assert.equal((await upload(1000, {})).status, 201, 'exactly full fits');
  });

  it('unsent uploads expire after the retention, and then count no more', async () => {
    const { client, upload } = await tenant();
    const old = await upload(3000, { user_id: 'visitor' });
    const age = (seconds: number) =>
      sql`update attachments set created_at = now() - make_interval(secs => ${seconds}) where id = ${old.body.data.id}`.execute(service.deps.db);
    await age(QUOTAS.pendingRetentionSeconds - 30);
    assertRefused(await upload(1000, { user_id: 'visitor' }), 409, 'upload_quota_exceeded', 3000);
    assert.equal((await client.call(`/v1/attachments/${old.body.data.id}`)).status, 200, 'still within the retention');
    await age(QUOTAS.pendingRetentionSeconds + 30);
    assert.equal((await upload(3000, { user_id: 'visitor' })).status, 201);
    assert.equal((await client.call(`/v1/attachments/${old.body.data.id}`)).status, 404, 'the expired upload is gone');
  });

  it('concurrent uploads never both pass a quota that only one fits', async () => {
    const { upload } = await tenant();
    const visitors = await Promise.all(Array.from({ length: 8 }, () => upload(2000, { user_id: 'racer' })));
    assert.deepEqual(visitors.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409]);
    const operators = await Promise.all(Array.from({ length: 8 }, () => upload(6000, {})));
    assert.deepEqual(operators.map((a) => a.status).sort(), [201, 201, 201, 413, 413, 413, 413, 413], '2000 + 3 × 6000 = 20,000');
  });
});
