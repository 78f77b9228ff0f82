/// <reference types="node" />
// `npm run screenshots` writes to an output folder git ignores, and rewrites the README's tracked
// pictures only when asked (`-- --docs`). The rendering itself is tested in
// screenshots.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { screenshotsDir } from '../../scripts/screenshots.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Whether git ignores `path` (a file that would be written there). */
function ignored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', relative(root, path)], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('npm run screenshots: where the pictures go', () => {
  it('by default into a folder git ignores, never over tracked files', () => {
    const dir = screenshotsDir([]);
    assert.equal(dir, join(root, 'out', 'screenshots'));
    assert.ok(ignored(join(dir, 'light.png')), `${dir} is ignored by git`);
    const tracked = execFileSync('git', ['ls-files', '--', relative(root, dir)], { cwd: root, encoding: 'utf8' });
    assert.equal(tracked, '');
  });

  it('into docs/screenshots (the README gallery) only with --docs, or into a folder given', () => {
    assert.equal(screenshotsDir(['--docs']), join(root, 'docs', 'screenshots'));
    assert.equal(ignored(join(root, 'docs', 'screenshots', 'light.png')), false);
    assert.equal(screenshotsDir(['/tmp/shots']), '/tmp/shots');
  });
});
