// Attacks on uploads. Images whose first header hides their real size (a GIF frame, a second JPEG
// frame, a WebP bitstream or animation frame larger than the canvas): the largest extent counts,
// and more than 50 megapixels answers 413.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { imageSize, MAX_IMAGE_PIXELS } from '../src/attachments/image-size.ts';
import type { Service } from '../src/index.ts';
import { clientFor, type TestClient } from './support/core.ts';
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
} from './support/files.ts';
import { createTestService } from './support/test-database.ts';

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

before(async () => {
  service = await createTestService({ maxAttachmentBytes: 64 * 1024 });
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
