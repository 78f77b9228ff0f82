/// <reference types="node" />
// What `npm publish` would ship, checked from the consumer's side: the tarball holds only the built
// package and its documents; every `exports` target exists in it; and two fresh consumer projects
// (TypeScript `moduleResolution: "bundler"` and `"node16"`) that install the tarball type-check an
// import of every entry with the repo's tsc, then import every ES entry in plain Node.
// `npm test` builds `dist/` before the Node tests run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'tsc.cmd' : 'tsc');

type ExportTarget = string | { types?: string; import?: string; default?: string };
interface PackageJson {
  name: string;
  exports: Record<string, ExportTarget>;
  customElements?: string;
  main?: string;
  types?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;

/** Documents that ship beside dist/. */
const DOCUMENTS = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];

function targetsOf(target: ExportTarget): string[] {
  return typeof target === 'string' ? [target] : Object.values(target).filter((v): v is string => typeof v === 'string');
}
const strip = (path: string) => path.replace(/^\.\//, '');

/** Public subpaths with TypeScript types (the IIFE `<script>` build and package.json have none). */
const typedEntries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && target.types)
  .map(([subpath, target]) => ({
    specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
    js: typeof target === 'object' ? (target.import ?? target.default) : undefined,
  }));

/**
 * What a consumer project has for the entries it uses: @types/node and the optional peer
 * @hono/node-server (proxy/node), and the frameworks. Linked from the repo's node_modules.
 */
const CONSUMER_PACKAGES = ['@types/node', '@hono/node-server', 'react', 'react-dom', '@types/react', '@types/react-dom', '@lit/react', 'vue', 'svelte'];

let work = '';
let packedFiles: string[] = [];

describe('the published package', () => {
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'ai-chat-pack-'));
    const [dryRun] = JSON.parse(
      execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    ) as Array<{ files: Array<{ path: string }> }>;
    packedFiles = dryRun.files.map((f) => f.path).sort();
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('ships only dist/ and the package documents', () => {
    const stray = packedFiles.filter((f) => !f.startsWith('dist/') && !DOCUMENTS.includes(f));
    assert.deepEqual(stray, [], 'files outside dist/ and the documents');
    for (const doc of DOCUMENTS) assert.ok(packedFiles.includes(doc), `${doc} is missing from the tarball`);
    const forbidden = packedFiles.filter((f) =>
      /(^|\/)(test|tests|server|bench|demo|src|node_modules|\.data)\//.test(f) || /\.test\.|\.spec\./.test(f) || /\.tsbuildinfo$/.test(f),
    );
    assert.deepEqual(forbidden, [], 'tests, sources, server or bench files in the tarball');
    // dist/dashboard is the reference service's UI (served from the repository), not the package's.
    assert.deepEqual(packedFiles.filter((f) => f.startsWith('dist/dashboard/')), [], 'the dashboard in the tarball');
    assert.ok(readFileSync(join(root, 'LICENSE'), 'utf8').startsWith('MIT License'));
  });

  it('ships every exports target, the types, and the custom-elements manifest', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      for (const file of targetsOf(target)) {
        assert.ok(packedFiles.includes(strip(file)), `exports["${subpath}"] → ${file} is not in the tarball`);
      }
    }
    for (const field of ['main', 'types'] as const) {
      const file = pkg[field];
      if (file) assert.ok(packedFiles.includes(strip(file)), `"${field}": ${file} is not in the tarball`);
    }
    assert.ok(typedEntries.length >= 5, 'every code entry has types');
    assert.ok(pkg.customElements, 'package.json names its custom-elements manifest');
    assert.ok(packedFiles.includes(strip(pkg.customElements)), `"customElements": ${pkg.customElements} is not in the tarball`);
    const manifest = JSON.parse(readFileSync(join(root, pkg.customElements), 'utf8')) as { modules: Array<{ declarations?: Array<{ tagName?: string }> }> };
    const tags = manifest.modules.flatMap((m) => m.declarations ?? []).map((d) => d.tagName);
    assert.ok(tags.includes('ai-chat-widget'), 'the manifest declares <ai-chat-widget>');
  });

  it('type-checks and imports every entry from the installed tarball', { timeout: 60_000 }, () => {
    execFileSync(npm, ['pack', '--pack-destination', work, '--ignore-scripts', '--silent'], { cwd: root, stdio: 'ignore' });
    const tarball = join(work, `${pkg.name}-${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}.tgz`);
    assert.ok(existsSync(tarball), 'npm pack wrote no tarball');

    for (const resolution of ['bundler', 'node16'] as const) {
      const dir = join(work, resolution);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: `consumer-${resolution}`, private: true, type: 'module', dependencies: installedRuntimeDependencies() }),
      );
      // Offline, with an empty npm cache of its own: a fresh clone has no registry metadata cached (a
      // lockfile install never fetches it), so the tarball's dependencies must come from the repo.
      // npm still checks every one against the tarball's declared range: a mismatch would need the
      // registry and fail here, and an undeclared import finds nothing (only declared ones are linked).
      try {
        execFileSync(
          npm,
          ['install', '--no-save', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tarball],
          { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, npm_config_cache: join(work, 'empty-npm-cache') } },
        );
      } catch (error) {
        assert.fail(`npm install of the tarball (${resolution}) failed:\n${(error as { stderr?: string }).stderr ?? error}`);
      }
      linkConsumerPackages(dir);
      writeConsumer(dir, resolution);
      try {
        execFileSync(tsc, ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        assert.fail(`tsc (${resolution}) failed:\n${stdout}${stderr}`);
      }
    }

    // Plain Node ESM from the consumer, no tsx: the package resolves only what it declares (linked above).
    const dir = join(work, 'node16');
    const specifiers = typedEntries.filter((e) => e.js?.endsWith('.js')).map((e) => e.specifier);
    const script = `for (const s of ${JSON.stringify(specifiers)}) { const m = await import(s); if (!Object.keys(m).length) throw new Error(s + ' exports nothing'); }
const { AiChatClient } = await import('${pkg.name}/client');
if (typeof AiChatClient !== 'function') throw new Error('no AiChatClient');
console.log('imported ' + ${specifiers.length});`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    assert.equal(out.trim(), `imported ${specifiers.length}`);
  });
});

/**
 * The package's runtime `dependencies`, as `file:` links to the copies the repo installed. npm links
 * them (it fetches nothing) and resolves the tarball's dependency edges against them.
 */
function installedRuntimeDependencies(): Record<string, string> {
  return Object.fromEntries(Object.keys(pkg.dependencies ?? {}).map((name) => [name, `file:${join(root, 'node_modules', name)}`]));
}

/** Links CONSUMER_PACKAGES into a consumer project (those the tarball did not bring). */
function linkConsumerPackages(dir: string): void {
  for (const name of CONSUMER_PACKAGES) {
    const source = join(root, 'node_modules', name);
    const dest = join(dir, 'node_modules', name);
    if (!existsSync(source) || existsSync(dest)) continue;
    mkdirSync(dirname(dest), { recursive: true });
    symlinkSync(source, dest, 'dir');
  }
}

/** A consumer project importing every typed entry, with a few uses whose types must be right. */
function writeConsumer(dir: string, resolution: 'bundler' | 'node16'): void {
  const compilerOptions =
    resolution === 'bundler'
      ? { module: 'esnext', moduleResolution: 'bundler' }
      : { module: 'node16', moduleResolution: 'node16' };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...compilerOptions,
        target: 'es2022',
        lib: ['es2022', 'dom', 'dom.iterable'],
        strict: true,
        noEmit: true,
        // check the package's own .d.ts files, not only their use
        skipLibCheck: false,
        types: [],
        jsx: 'react-jsx',
      },
      files: ['consumer.ts'],
    }),
  );
  const lines = typedEntries.map((entry, i) => `import type * as entry${i} from '${entry.specifier}';`);
  lines.push(
    `export type AllEntries = [${typedEntries.map((_, i) => `typeof entry${i}`).join(', ')}];`,
    `import '${pkg.name}';`,
    `import { AiChatWidget, type WidgetStrings } from '${pkg.name}/element';`,
    `import { AiChatClient } from '${pkg.name}/client';`,
    `import { createProxy } from '${pkg.name}/proxy';`,
    // the tag map is augmented: createElement gives the element's own class
    `const el: AiChatWidget = document.createElement('ai-chat-widget');`,
    `el.strings = { send: 'Go' } satisfies Partial<WidgetStrings>;`,
    `el.addEventListener('ai-chat-error', (event) => { const code: string = event.detail.code; void code; });`,
    `export const client = new AiChatClient({ baseUrl: 'http://127.0.0.1:8787/v1', apiKey: 'k' });`,
    `export const proxyType: typeof createProxy = createProxy;`,
    // the expect-error line below proves the types are real, not `any`
    `// @ts-expect-error mode is a union of literal strings`,
    `el.mode = 'sideways';`,
  );
  writeFileSync(join(dir, 'consumer.ts'), `${lines.join('\n')}\n`);
}
