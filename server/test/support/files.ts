/** Files for attachment tests, built byte by byte: the headers the sniffer and `imageSize` read, and no more. */

export const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));
export const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
export const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
export const u16be = (n: number) => [(n >>> 8) & 255, n & 255];

/** A PNG's signature and IHDR chunk (all the sniffer and `imageSize` read). */
export const png = (width: number, height: number) => bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(13), 'IHDR', u32be(width), u32be(height), [8, 6, 0, 0, 0]);
export const gif = (width: number, height: number, rest = '') => bytes('GIF89a', u16le(width), u16le(height), [0xf7, 0, 0], rest);
/** A JPEG with an APP0 segment before its baseline start-of-frame. */
export const jpeg = (width: number, height: number) =>
  bytes([0xff, 0xd8], [0xff, 0xe0], u16be(16), 'JFIF\0', [1, 1, 0, 0, 1, 0, 1, 0, 0], [0xff, 0xc0], u16be(17), [8], u16be(height), u16be(width), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
export const webpLossless = (width: number, height: number) => {
  const bits = (width - 1) | ((height - 1) << 14);
  return bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8L', [0, 0, 0, 0], [0x2f], [bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255], [0, 0, 0, 0, 0]);
};

/** A GIF with no color tables whose one frame (at `left`, `top`) is `frame` pixels, on a `screen`; `extension` goes before it. */
export const gifWithFrame = (screen: [number, number], frame: [number, number], options: { left?: number; top?: number; extension?: number[] } = {}) =>
  bytes('GIF89a', u16le(screen[0]), u16le(screen[1]), [0, 0, 0], options.extension ?? [], [0x2c], u16le(options.left ?? 0), u16le(options.top ?? 0), u16le(frame[0]), u16le(frame[1]), [0], [2, 2, 0x4c, 0x01, 0], ';');
/** A graphic control extension (a frame's delay and transparency): one sub-block of 4 bytes. */
export const gifControlExtension = [0x21, 0xf9, 4, 0, 0, 0, 0, 0];

/** A JPEG segment: its marker and length-prefixed payload. */
export const jpegSegment = (marker: number, payload: number[]) => [0xff, marker, ...u16be(payload.length + 2), ...payload];
/** A start-of-frame payload: 8-bit samples, one component. */
export const jpegFrame = (width: number, height: number) => [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0];

const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
const u24le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
/** A RIFF chunk, padded to an even length. */
export const riffChunk = (fourcc: string, payload: number[]) => [...Buffer.from(fourcc, 'latin1'), ...u32le(payload.length), ...payload, ...(payload.length & 1 ? [0] : [])];
/** A WebP of `chunks` (the RIFF size is not checked by the reader, and is written as the total). */
export const webp = (...chunks: number[][]) => {
  const body = chunks.flat();
  return bytes('RIFF', u32le(4 + body.length), 'WEBP', body);
};
export const vp8xChunk = (width: number, height: number, flags = 0) => riffChunk('VP8X', [flags, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
export const vp8lChunk = (width: number, height: number) => {
  const bits = (width - 1) | ((height - 1) << 14);
  return riffChunk('VP8L', [0x2f, ...u32le(bits), 0, 0, 0]);
};
/** A lossy key frame's header: the frame tag, the start code, the 14-bit width and height. */
export const vp8Chunk = (width: number, height: number) => riffChunk('VP8 ', [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height), 0, 0]);
/** An animation frame at (`x`, `y`) (even), `width` × `height`, holding `inner` chunks. */
export const anmfChunk = (x: number, y: number, width: number, height: number, inner: number[]) =>
  riffChunk('ANMF', [...u24le(x / 2), ...u24le(y / 2), ...u24le(width - 1), ...u24le(height - 1), 0, 0, 0, 0, ...inner]);
