/// <reference types="node" />
// `npm run build` is reproducible: two builds of the same sources, in two checkouts at different
// paths, give byte-identical dist/ trees (no timestamps, no absolute paths in source maps, no
// order-dependent chunk names). The builds run in temporary copies so the repo's own dist/ is left
// alone; node_modules is linked, not copied.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Build inputs besides the root's own files (package.json, configs): sources and build scripts. */
const INPUT_DIRS = ['src', 'scripts'];

const work = mkdtempSync(join(tmpdir(), 'ai-chat-repro-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the build inputs at `dir`, with the repo's node_modules linked in. */
function checkout(dir: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isFile()) cpSync(join(root, entry.name), join(dir, entry.name));
  }
  for (const input of INPUT_DIRS) cpSync(join(root, input), join(dir, input), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** `relative path → sha256` of every file under `dir`. */
function hashes(dir: string): Map<string, string> {
  const result = new Map<string, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else result.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return result;
}

describe('reproducible build', () => {
  it('two builds at different paths give byte-identical dist/', { timeout: 120_000 }, () => {
    const dirs = [join(work, 'first'), join(work, 'second-checkout')];
    const trees = dirs.map((dir) => {
      checkout(dir);
      execFileSync(npm, ['run', '--silent', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      return hashes(join(dir, 'dist'));
    });
    const [first, second] = trees as [Map<string, string>, Map<string, string>];
    assert.ok(first.size >= 10, `the build wrote only ${first.size} files`);
    assert.deepEqual([...second.keys()], [...first.keys()], 'both builds write the same files');
    const differing = [...first].filter(([file, hash]) => second.get(file) !== hash).map(([file]) => file);
    assert.deepEqual(differing, [], 'files that differ between the two builds');

    // no absolute path of the checkout leaks into any output (source maps, manifest, types)
    for (const dir of dirs) {
      for (const file of first.keys()) {
        const text = readFileSync(join(dir, 'dist', file), 'utf8');
        assert.ok(!text.includes(dir), `${file} contains the build directory ${dir}`);
      }
    }
  });
});
