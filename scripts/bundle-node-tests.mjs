// The server's Node test files, each bundled with esbuild into one ES module, so `npm test` runs them
// with plain `node` instead of under tsx. tsx's loader hooks answer every one of the few hundred
// TypeScript modules a test file imports through a thread of their own, which cost each test process
// about a second of CPU before its first test; bundled, the server's suite on PGlite took 372 s
// instead of 448 s on two cores (713 CPU-seconds instead of 865), every test passing alike.
//
// Packages stay external (node_modules as installed), and the bundles are written under
// server/node_modules so that the server's own dependencies resolve from them. Each source file's
// `import.meta.url` (and `dirname`/`filename`) is replaced by that file's own, so paths a module
// finds beside itself (migrations, data files, worker scripts, fixtures) are still found. Workers
// and child processes load their TypeScript through tsx themselves, as they do in production.
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const OUT = resolve(root, 'server/node_modules/.cache/ai-chat-node-tests');

/** Replaces `import.meta.*` in each TypeScript source by the source's own location. */
const sourceLocation = {
  name: 'source-location',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const contents = text.includes('import.meta')
        ? text
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
            .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
            .replaceAll('import.meta.filename', JSON.stringify(args.path))
        : text;
      return { contents, loader: 'ts' };
    });
  },
};

/** Bundles `files` (paths relative to the repository) and answers each one's bundle, by its path. */
export async function bundleNodeTests(files) {
  await esbuild.build({
    entryPoints: files.map((file) => resolve(root, file)),
    outdir: OUT,
    outbase: root,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Failures point at the TypeScript line (`node --enable-source-maps`).
    sourcemap: 'inline',
    // A bundled CommonJS helper may still call `require`.
    banner: { js: "import { createRequire as __testCreateRequire } from 'node:module'; const require = __testCreateRequire(import.meta.url);" },
    plugins: [sourceLocation],
    logLevel: 'error',
  });
  return new Map(files.map((file) => [file, relative(root, resolve(OUT, file.replace(/\.ts$/, '.js')))]));
}
