/**
 * Size: the built files as shipped (already minified by the build), gzip level 9 and brotli
 * quality 11, ours against deep-chat's browser bundle, plus where our IIFE's bytes go.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import { breakdown, type Breakdown, type RawSourceMap } from './lib/sourcemap.ts';

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface SizeResults {
  oursIife: FileSize;
  oursEsm: FileSize;
  deepChat: FileSize;
  iifeBreakdown: Breakdown[];
}

export function measureFile(path: string): FileSize {
  return measureBytes(path, readFileSync(path));
}

/** Paths in results are relative to the repository, so results.json holds no machine paths. */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

function measureBytes(file: string, bytes: Buffer): FileSize {
  return {
    file: relative(repoRoot, file),
    raw: bytes.byteLength,
    gzip: gzipSync(bytes, { level: 9 }).byteLength,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
    }).byteLength,
  };
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/**
 * The ESM entry as an app would ship it: the entry and every local chunk it imports (transitively),
 * each minified (the library build leaves ESM unminified for the app's bundler). `lit` stays external,
 * as in the build: an app shares it.
 */
export function measureEsmGraph(entry: string): FileSize {
  const seen = new Set<string>();
  const pending = [entry];
  let minified = '';
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(RELATIVE_IMPORT)) pending.push(join(dirname(file), match[1]!));
    minified += transformSync(code, { minify: true, format: 'esm', target: 'es2021' }).code;
  }
  return measureBytes(`${entry} (+${seen.size - 1} chunks, minified)`, Buffer.from(minified));
}

export interface SizePaths {
  iife: string;
  esm: string;
  deepChat: string;
}

export function measureSizes(paths: SizePaths): SizeResults {
  for (const path of Object.values(paths)) {
    if (!existsSync(path)) throw new Error(`missing ${path}: run \`npm run build\` (and \`npm install\`) first`);
  }
  const map = JSON.parse(readFileSync(`${paths.iife}.map`, 'utf8')) as RawSourceMap;
  return {
    oursIife: measureFile(paths.iife),
    oursEsm: measureEsmGraph(paths.esm),
    deepChat: measureFile(paths.deepChat),
    iifeBreakdown: breakdown(readFileSync(paths.iife, 'utf8'), map),
  };
}
