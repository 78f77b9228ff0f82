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
