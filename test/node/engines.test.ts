/// <reference types="node" />
// The Node versions the package.json states are true. `engines` is what a USER
// needs: every package installed with the published package must allow its lowest Node. `devEngines`
// is what working in this repository needs: every package `npm install` puts here must allow that,
// so npm prints no EBADENGINE. Checked against the lockfile, which is what `npm ci` installs.
// Optional packages are left out: npm skips them where they do not fit (platform binaries).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface LockPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  link?: boolean;
  engines?: { node?: string } | string[];
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devEngines?: { runtime?: { name: string; version: string } };
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };

function floor(range: string): string {
  const min = semver.minVersion(range);
  assert.ok(min, `${range} is no semver range`);
  return min.version;
}

/** Installed packages (path, version, engines.node) whose engines refuse `version`. */
function refusing(version: string, include: (entry: LockPackage) => boolean): string[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.includes('node_modules/') && !entry.link && !entry.optional && include(entry))
    .flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range && !semver.satisfies(version, range) ? [`${path}@${entry.version} wants node ${range}`] : [];
    });
}

describe('stated Node versions', () => {
  const userFloor = floor(pkg.engines.node);

  it(`every package a user installs allows the engines floor (node ${userFloor})`, () => {
    // not dev: the package's dependencies and their dependencies (peers it names included)
    assert.deepEqual(refusing(userFloor, (entry) => !entry.dev && !entry.devOptional), []);
  });

  it('every package of the repository allows the devEngines floor, so npm install warns of no engine', () => {
    const runtime = pkg.devEngines?.runtime;
    assert.ok(runtime && runtime.name === 'node', 'package.json states devEngines.runtime for node');
    const devFloor = floor(runtime.version);
    assert.ok(semver.satisfies(devFloor, pkg.engines.node), 'working on the package needs no less than using it');
    assert.deepEqual(refusing(devFloor, () => true), []);
    assert.ok(semver.satisfies(process.version, runtime.version), `this Node (${process.version}) is below devEngines`);
  });
});
