// Attachments: what an upload is, judged by its bytes, and how a stored file is served.
// Hostile files each get a verdict here: an SVG with script, an HTML page named like an image, a
// polyglot (a GIF that is also a script), a mislabeled file, archives (a zip bomb is never opened,
// and refused as a type), an image whose header claims gigapixels. Random bytes and names are fuzzed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ACCEPTED_TYPES, sniff } from '../src/attachments/content-type.ts';
import { imageSize, MAX_IMAGE_PIXELS } from '../src/attachments/image-size.ts';
import { fileHeaders, safeFileName } from '../src/attachments/file-headers.ts';

import { bytes, gif, jpeg, png, u16be, u16le, u32be, webpLossless } from './support/files.ts';

describe('attachments: the type is what the bytes are', () => {
  it('recognises each accepted type by its content', () => {
    assert.equal(sniff(png(10, 10)), 'image/png');
    assert.equal(sniff(jpeg(640, 480)), 'image/jpeg');
    assert.equal(sniff(gif(1, 1)), 'image/gif');
    assert.equal(sniff(webpLossless(20, 30)), 'image/webp');
    assert.equal(sniff(bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj')), 'application/pdf');
    assert.equal(sniff(new TextEncoder().encode('Order 4711 — größer als erwartet 😀\r\n\tsecond line')), 'text/plain');
    assert.equal(sniff(new TextEncoder().encode('\uFEFFwith a byte order mark')), 'text/plain');
    assert.deepEqual([...ACCEPTED_TYPES].sort(), ['application/pdf', 'image/gif', 'image/jpeg', 'image/png', 'image/webp', 'text/plain']);
  });

  it('names hostile files for what they are, so they can be refused', () => {
    const svg = '<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>';
    assert.equal(sniff(new TextEncoder().encode(svg)), 'image/svg+xml', 'an SVG with script');
    assert.equal(sniff(new TextEncoder().encode('  <!DOCTYPE html><html><script>alert(1)</script>')), 'text/html', 'an HTML page');
    assert.equal(sniff(new TextEncoder().encode('<script>fetch("//evil")</script>')), 'text/html', 'a bare script');
    assert.equal(sniff(new TextEncoder().encode('<?xml version="1.0"?><x:y xmlns:x="urn:x"/>')), 'application/xml');
    assert.equal(sniff(bytes([0x50, 0x4b, 0x03, 0x04], [20, 0, 0, 0, 8, 0])), 'application/zip', 'a zip (bomb or not: it is never opened)');
    assert.equal(sniff(bytes([0x1f, 0x8b, 8, 0])), 'application/gzip');
    assert.equal(sniff(bytes([0x4d, 0x5a, 0x90, 0x00, 3, 0, 0, 0])), 'application/octet-stream', 'an executable');
    assert.equal(sniff(bytes('hello', [0], 'world')), 'application/octet-stream', 'text with a NUL');
    assert.equal(sniff(bytes([0xff, 0xfe, 0x68, 0x00])), 'application/octet-stream', 'UTF-16 is not accepted as text');
    assert.equal(sniff(new Uint8Array()), 'text/plain', 'empty (refused by size elsewhere)');
  });

  it('a polyglot is the type its first bytes make it, and is served as nothing but that', () => {
    const polyglot = gif(1, 1, '=1;<script>alert(document.cookie)</script><html><body onload=alert(1)>');
    assert.equal(sniff(polyglot), 'image/gif');
    const headers = fileHeaders({ content_type: 'image/gif', filename: 'cat.gif', size: polyglot.length });
    assert.equal(headers['Content-Type'], 'image/gif');
    assert.equal(headers['X-Content-Type-Options'], 'nosniff', 'the browser may not guess HTML');
    assert.match(headers['Content-Security-Policy'], /\bsandbox\b/);
    assert.match(headers['Content-Security-Policy'], /default-src 'none'/);
  });

  it('a mislabeled file is what its bytes say, whatever its name', () => {
    assert.equal(sniff(png(2, 2)), 'image/png', 'a PNG named report.pdf is a PNG');
    assert.equal(sniff(new TextEncoder().encode('<html><body>hi')), 'text/html', 'an HTML page named photo.png is HTML');
  });

  it('reads image dimensions from their headers (a gigapixel image is a decompression bomb)', () => {
    assert.deepEqual(imageSize(png(100_000, 100_000), 'image/png'), { width: 100_000, height: 100_000 });
    assert.deepEqual(imageSize(gif(320, 200), 'image/gif'), { width: 320, height: 200 });
    assert.deepEqual(imageSize(jpeg(4000, 3000), 'image/jpeg'), { width: 4000, height: 3000 });
    assert.deepEqual(imageSize(webpLossless(800, 600), 'image/webp'), { width: 800, height: 600 });
    assert.equal(imageSize(bytes([0x89, 0x50]), 'image/png'), null, 'a cut header');
    assert.equal(imageSize(bytes([0xff, 0xd8, 0x00, 0x00]), 'image/jpeg'), null, 'a broken JPEG');
    assert.ok(100_000 * 100_000 > MAX_IMAGE_PIXELS && 4000 * 3000 < MAX_IMAGE_PIXELS);
  });

  it('never throws, and names every random input with one of its types (fuzzed)', () => {
    const known = new Set<string>([...ACCEPTED_TYPES, 'text/html', 'image/svg+xml', 'application/xml', 'application/zip', 'application/gzip', 'application/octet-stream']);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (data) => {
        assert.ok(known.has(sniff(data)));
        for (const type of ['image/png', 'image/gif', 'image/jpeg', 'image/webp']) imageSize(data, type);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('attachments: names and headers', () => {
  it('keeps a plain name and cleans a hostile one', () => {
    assert.equal(safeFileName('Rechnung März.pdf'), 'Rechnung März.pdf');
    assert.equal(safeFileName('../../etc/passwd'), 'passwd');
    assert.equal(safeFileName('C:\\Users\\me\\photo.jpg'), 'photo.jpg');
    assert.equal(safeFileName('invoice\u202Efdp.exe'), 'invoicefdp.exe', 'no direction override');
    assert.equal(safeFileName('a\u0000b\nc.txt'), 'abc.txt');
    assert.equal(safeFileName('.htaccess'), 'htaccess', 'no hidden file');
    assert.equal(safeFileName(''), 'file');
    assert.equal(safeFileName('\u200f\u200e'), 'file');
    const long = safeFileName(`${'😀'.repeat(300)}.png`);
    assert.equal(Array.from(long).length, 200);
    assert.ok(long.endsWith('.png'), 'the extension survives the cut');
    assert.ok(!/[\uD800-\uDBFF]$/.test(long.slice(0, -4)), 'no half emoji');
  });

  it('never yields a path, a control or a direction character (fuzzed)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (name) => {
        const safe = safeFileName(name);
        assert.ok(safe.length > 0);
        assert.ok(!/[\\/\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(safe), JSON.stringify(safe));
        assert.ok(Array.from(safe).length <= 200);
      }),
      { numRuns: 2000 },
    );
  });

  it('shows only raster images inline; everything else downloads, with the exact name', () => {
    const image = fileHeaders({ content_type: 'image/png', filename: 'chart.png', size: 42 });
    assert.match(image['Content-Disposition'], /^inline; /);
    assert.equal(image['Content-Length'], '42');
    for (const content_type of ['application/pdf', 'text/plain']) {
      const file = fileHeaders({ content_type, filename: 'Größe "final"; v2.pdf', size: 1 });
      assert.match(file['Content-Disposition'], /^attachment; filename="Gr__e _final__ v2\.pdf"; filename\*=UTF-8''Gr%C3%B6%C3%9Fe%20%22final%22%3B%20v2\.pdf$/);
      assert.equal(file['X-Content-Type-Options'], 'nosniff');
    }
    assert.equal(fileHeaders({ content_type: 'text/plain', filename: 'a.txt', size: 1 })['Content-Type'], 'text/plain; charset=utf-8');
  });
});
