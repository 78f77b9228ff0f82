/**
 * The size an accepted image decodes to, read from its headers, so that a decompression bomb (a
 * few bytes that claim gigapixels) is refused before anything decodes it. A format that can hold
 * more than one size is read in full: every GIF frame, every JPEG start-of-frame, every WebP
 * bitstream and animation frame, and the largest extent wins, since a decoder may allocate for
 * any of them whatever the first header or the canvas says. Every walk moves forward through the
 * file and stops at its end, so it costs one pass over at most the service's largest file.
 */

/** An image larger than this many pixels is refused: decoding it would take gigabytes. */
export const MAX_IMAGE_PIXELS = 50_000_000;

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height of an accepted image; null when its header cannot be read. */
export function imageSize(bytes: Uint8Array, type: string): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (type) {
    case 'image/png': // IHDR is the first chunk, and the only size a PNG (or APNG) decoder allocates
      return bytes.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
    case 'image/gif':
      return gifSize(bytes, view);
    case 'image/webp':
      return webpSize(bytes, view);
    case 'image/jpeg':
      return jpegSize(bytes, view);
    default:
      return null;
  }
}

/** The extent of `a` and `b` together: neither grows past it. */
const union = (a: ImageSize | null, b: ImageSize): ImageSize => (a ? { width: Math.max(a.width, b.width), height: Math.max(a.height, b.height) } : b);

const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);

/**
 * A GIF: its logical screen, then blocks up to the trailer. Each image descriptor (`,`) places a
 * frame at left/top with its own width and height, which may reach past the screen; extensions
 * (`!`) and each frame's data are chains of length-prefixed sub-blocks ending in an empty one.
 * A file cut short keeps the frames read so far, as decoders show them.
 */
function gifSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  if (bytes.length < 13) return null;
  let size: ImageSize = { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  const colorTable = (packed: number) => (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);
  const skipSubBlocks = (from: number) => {
    let at = from;
    while (at < bytes.length && bytes[at] !== 0) at += 1 + bytes[at]!;
    return at + 1;
  };
  let at = 13 + colorTable(bytes[10]!);
  while (at < bytes.length) {
    const introducer = bytes[at];
    if (introducer === 0x2c) {
      if (at + 10 > bytes.length) break;
      const left = view.getUint16(at + 1, true);
      const top = view.getUint16(at + 3, true);
      size = union(size, { width: left + view.getUint16(at + 5, true), height: top + view.getUint16(at + 7, true) });
      // the local color table, then the LZW minimum code size, then the frame's sub-blocks
      at = skipSubBlocks(at + 10 + colorTable(bytes[at + 9]!) + 1);
    } else if (introducer === 0x21) {
      at = skipSubBlocks(at + 2);
    } else {
      break; // the trailer (`;`), or bytes no decoder reads on from
    }
  }
  return size;
}

/** SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Markers with no length: TEM, RST0–7, SOI. */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

/**
 * A JPEG: segments up to the end of image, each start-of-frame read (a second one, say after the
 * first scan, is a second size for a decoder to allocate). The entropy-coded data after a
 * start-of-scan has no length: it runs to the next marker that is neither a stuffed byte (FF 00)
 * nor a restart.
 */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  let size: ImageSize | null = null;
  let at = 2;
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) return size;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9) break; // end of image
    if (isStandalone(marker)) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) break;
    const length = view.getUint16(at + 2);
    if (length < 2) return size;
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) break;
      size = union(size, { height: view.getUint16(at + 5), width: view.getUint16(at + 7) });
    }
    at += 2 + length;
    if (marker === 0xda) at = entropyDataEnd(bytes, at);
  }
  return size;
}

function entropyDataEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  while (at + 1 < bytes.length) {
    const next = bytes[at + 1]!;
    if (bytes[at] === 0xff && next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) return at;
    at++;
  }
  return bytes.length;
}

/**
 * A WebP: RIFF chunks after the 12-byte header. The VP8X canvas, each VP8 (lossy) and VP8L
 * (lossless) bitstream's own size, and each animation frame (ANMF) at its offset: whichever is
 * largest. Chunks are padded to an even length; ANMF holds a frame's chunks after its 16-byte header.
 */
function webpSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  let size: ImageSize | null = null;
  // frames hold bitstreams, not frames: only the top level is searched for ANMF
  const walk = (from: number, end: number, frame: ImageSize | null) => {
    let at = from;
    while (at + 8 <= end) {
      const chunk = String.fromCharCode(...bytes.subarray(at, at + 4));
      const length = view.getUint32(at + 4, true);
      const data = at + 8;
      const dataEnd = Math.min(end, data + length);
      // a header is read up to the file's end, not the chunk's: a wrong length hides no size
      const found = chunkSize(chunk, data, end);
      if (found) size = union(size, frame ? { width: frame.width + found.width, height: frame.height + found.height } : found);
      if (chunk === 'ANMF' && !frame && data + 16 <= dataEnd) {
        walk(data + 16, dataEnd, { width: 2 * u24le(bytes, data), height: 2 * u24le(bytes, data + 3) });
      }
      at = data + length + (length & 1);
    }
  };
  const chunkSize = (chunk: string, data: number, end: number): ImageSize | null => {
    if (chunk === 'VP8X' && data + 10 <= end) return { width: 1 + u24le(bytes, data + 4), height: 1 + u24le(bytes, data + 7) };
    // a frame's X and Y offsets (in units of 2 pixels), then its width and height
    if (chunk === 'ANMF' && data + 12 <= end) return { width: 2 * u24le(bytes, data) + 1 + u24le(bytes, data + 6), height: 2 * u24le(bytes, data + 3) + 1 + u24le(bytes, data + 9) };
    if (chunk === 'VP8L' && data + 5 <= end) {
      const bits = view.getUint32(data + 1, true);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
    }
    // a key frame: a 3-byte tag and the start code 9D 01 2A, then 14-bit width and height
    if (chunk === 'VP8 ' && data + 10 <= end) return { width: view.getUint16(data + 6, true) & 0x3fff, height: view.getUint16(data + 8, true) & 0x3fff };
    return null;
  };
  walk(12, bytes.length, null);
  return size;
}
