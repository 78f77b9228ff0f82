/// <reference types="node" />
// Every fenced snippet in README.md and docs/*.md is exercised (issue #11, item 8): a snippet nobody
// runs goes stale (the README's createProxy once called an undefined `sessionUserId` and gave
// logged-out visitors no token). Each snippet must be claimed below by a check, and each check must
// still find its snippet, so a new or moved snippet fails here until someone says how it is tested.
//
// TypeScript snippets are type-checked together, as a consumer project that installed the package
// sees them (the built `dist/`: run `npm run build` first, as `npm test` does), and the runnable ones
// run against the real service: the createProxy snippets mint a token for a logged-out visitor, the
// client snippet chats, the React snippet renders. A run changes only what the `subs` of a claim
// list (the service's URL, a real bot id), each of which must occur in the snippet exactly once.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createBot, startService, type RunningService } from './proxy-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as { name: string; version: string; unpkg: string; scripts: Record<string, string> };
const readme = read('README.md');

interface Snippet {
  file: string;
  /** The nearest heading above the snippet. */
  heading: string;
  lang: string;
  code: string;
  line: number;
}

function snippetsOf(file: string): Snippet[] {
  const found: Snippet[] = [];
  let heading = '';
  let open: Snippet | null = null;
  read(file)
    .split('\n')
    .forEach((text, index) => {
      const fence = /^```(\w*)\s*$/.exec(text);
      if (open) {
        if (fence && !fence[1]) {
          found.push(open);
          open = null;
        } else {
          open.code += `${text}\n`;
        }
      } else if (fence) {
        open = { file, heading, lang: fence[1] || 'text', code: '', line: index + 1 };
      } else if (/^#{1,6} /.test(text)) {
        heading = text.replace(/^#+ /, '');
      }
    });
  return found;
}

const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const snippets = DOCS.flatMap(snippetsOf);

// --- what the README's reference promises (the manifest test ties that reference to the code) ---

/** Backticked names in the first column of the README's element reference tables. */
function referenceNames(from: string, to: string): Set<string> {
  const start = readme.indexOf(from);
  const end = readme.indexOf(to, start);
  assert.ok(start >= 0 && end > start, `README has "${from}" before "${to}"`);
  const names = new Set<string>();
  for (const row of readme.slice(start, end).split('\n').filter((l) => l.startsWith('|'))) {
    for (const [, name] of row.split('|')[1]!.matchAll(/`([^`]+)`/g)) names.add(name!);
  }
  return names;
}
const ATTRIBUTES = referenceNames('### Attributes and properties', '### Methods');
const CSS_PROPERTIES = referenceNames('### Theming', '`::part` names');
const PARTS = new Set(
  [...(/`::part` names are a stable contract: ([^.]*)\./s.exec(readme)?.[1] ?? '').matchAll(/`([\w-]+)`/g)].map((m) => m[1]!),
);
const GLOBAL_ATTRIBUTES = new Set(['id', 'class', 'style', 'hidden']);

// --- checks, one per kind of snippet ---

/** Every `<ai-chat-widget>` attribute is one the element has; a `<script>` loads the IIFE build. */
function checkMarkup(s: Snippet): void {
  const tags = [...s.code.matchAll(/<ai-chat-widget\b([^>]*)>/g)];
  assert.ok(tags.length, 'the snippet shows the element');
  for (const [, tag] of tags) {
    const attributes = tag!.replace(/"[^"]*"|'[^']*'/g, '""'); // names only, not words in values
    for (const [, name] of attributes.matchAll(/\s([a-z][\w-]*)(?==|\s|$)/g)) {
      assert.ok(ATTRIBUTES.has(name!) || GLOBAL_ATTRIBUTES.has(name!), `<ai-chat-widget ${name}> is no attribute of the element`);
    }
  }
  for (const [, src] of s.code.matchAll(/<script src="([^"]+)"/g)) {
    assert.equal(basename(src!), basename(pkg.unpkg), 'the script tag loads the IIFE build');
  }
}

/** Every custom property and `::part()` is in the README's theming reference. */
function checkCss(s: Snippet): void {
  for (const [name] of s.code.matchAll(/--ai-chat-[\w-]+/g)) assert.ok(CSS_PROPERTIES.has(name), `${name} is not documented`);
  for (const [, part] of s.code.matchAll(/::part\(([\w-]+)\)/g)) assert.ok(PARTS.has(part!), `::part(${part}) is not documented`);
}

/** Where a variable set in a shell line is read: `npm start`'s server. */
const serverSource = (dir = 'server/src'): string =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .map((entry) => (entry.isDirectory() ? serverSource(`${dir}/${entry.name}`) : entry.name.endsWith('.ts') ? read(`${dir}/${entry.name}`) : ''))
    .join('\n');

/** Each command is an npm script that exists, an install of what `npm pack` writes, or a folder. */
function checkShell(s: Snippet): void {
  for (const line of s.code.split('\n')) {
    for (const command of line.replace(/#.*$/, '').split('&&').map((c) => c.trim()).filter(Boolean)) {
      const words = command.split(/\s+/);
      while (/^[A-Z_]+=/.test(words[0]!)) {
        const name = words.shift()!.split('=')[0]!;
        assert.ok(serverSource().includes(`process.env.${name}`), `${name} is read by the server`);
      }
      assert.equal(words[0], 'npm', `"${command}" is an npm command`);
      const [, verb, arg] = words;
      if (verb === 'run') assert.ok(pkg.scripts[arg!], `npm run ${arg}: no such script`);
      else if (verb === 'test' || verb === 'start') assert.ok(pkg.scripts[verb], `npm ${verb}: no such script`);
      else if (verb === 'install' && arg?.endsWith('.tgz')) assert.equal(basename(arg), `${pkg.name}-${pkg.version}.tgz`, 'npm pack writes that file');
      else if (verb === 'install' && arg) assert.match(arg, /^(\/|\.)/, 'a folder (a checkout): exercised below');
      else assert.ok(verb === 'install' || verb === 'pack', `unknown command ${command}`);
    }
  }
}

// --- the consumer project: the package as a dependency, TypeScript snippets as its modules ---

let work = '';
let service: RunningService;
let apiKey = '';
let botId = '';
/** File written for each TypeScript snippet (after its substitutions). */
const modules = new Map<Snippet, string>();

interface Claim {
  file: string;
  heading: string;
  lang: string;
  /** How it is exercised, for the reader of a failure. */
  how: string;
  check?: (s: Snippet) => void | Promise<void>;
  /** TypeScript: what a run changes, `[as written, run with]`. */
  subs?: () => [string, string][];
  /** Delegated to another suite (no check here): shown as a todo. */
  delegated?: string;
}

/** Imports the module written for `s` with `env` set, in this process (for what it defines). */
async function run(s: Snippet, env: Record<string, string>): Promise<{ module: Record<string, unknown> }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return { module: (await import(pathToFileURL(modules.get(s)!).href)) as Record<string, unknown> };
  } finally {
    process.env = saved;
  }
}

/**
 * Runs the module written for `s` as a program of its own (for what it prints); its stdout. Not
 * synchronously: the service it talks to runs in this process.
 */
async function runProgram(s: Snippet, env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', modules.get(s)!], {
    cwd: work,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return stdout;
}

/** A createProxy snippet: a logged-out visitor from an allowed origin gets a token and chats with it. */
async function exerciseProxy(s: Snippet, env: Record<string, string>): Promise<void> {
  const { module } = await run(s, env);
  const proxy = module.proxy as { fetch(request: Request): Promise<Response> };
  const origin = 'https://shop.example';
  const minted = await proxy.fetch(
    new Request('https://app.example/token', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' }),
  );
  const body = (await minted.json()) as { data?: { token: string; user_id: string; bot_id: string } };
  assert.equal(minted.status, 200, `a logged-out visitor gets a token: ${JSON.stringify(body)}`);
  assert.match(body.data!.user_id, /^anon_/);
  const reply = await proxy.fetch(
    new Request(`https://app.example/v1/bots/${body.data!.bot_id}/messages`, {
      method: 'POST',
      headers: { origin, authorization: `Bearer ${body.data!.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    }),
  );
  assert.equal(reply.status, 200, 'and chats with the bot through the proxy');
}

const SECRET = 'a-doc-snippet-secret-of-at-least-32-bytes';

const CLAIMS: Claim[] = [
  { file: 'README.md', heading: 'Quick start (30 seconds)', lang: 'sh', how: 'npm scripts exist; npm start runs in demo-proxy-origins and screenshots tests', check: checkShell },
  { file: 'README.md', heading: 'Script tag', lang: 'html', how: 'attributes against the element reference; the IIFE file', check: checkMarkup },
  {
    file: 'README.md',
    heading: 'npm',
    lang: 'sh',
    how: 'the tarball name npm pack writes (pack.test.ts installs that tarball); the folder install runs below',
    check: (s) => {
      checkShell(s);
      const consumer = join(work, 'folder-install');
      mkdirSync(consumer);
      writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'folder-consumer', private: true, type: 'module' }));
      execFileSync('npm', ['install', '--no-save', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--install-links=false', '--loglevel=error', root], { cwd: consumer, stdio: 'pipe' });
      writeFileSync(join(consumer, 'check.mjs'), "import { AiChatClient } from 'ai-chat-widget/client'; console.log(typeof AiChatClient);");
      assert.equal(execFileSync(process.execPath, ['check.mjs'], { cwd: consumer, encoding: 'utf8' }).trim(), 'function');
    },
  },
  { file: 'README.md', heading: 'npm', lang: 'ts', how: 'type-checked; imported in Node', check: async (s) => void (await run(s, {})) },
  { file: 'README.md', heading: 'Theming', lang: 'css', how: 'properties and parts against the reference', check: checkCss },
  {
    file: 'README.md',
    heading: 'Content Security Policy',
    lang: 'text',
    how: 'the policy npm start serves on /strict-csp.html (csp.test.ts runs the widget under it)',
    check: (s) => {
      const served = /STRICT_CSP = "([^"]+)"/.exec(read('server/src/static.ts'))?.[1];
      assert.equal(s.code.trim(), `Content-Security-Policy: ${served}`);
    },
  },
  { file: 'README.md', heading: 'Reserve its space (no layout shift)', lang: 'css', how: 'properties and parts against the reference', check: checkCss },
  {
    file: 'README.md',
    heading: 'React',
    lang: 'tsx',
    how: 'type-checked; rendered with react-dom/server',
    check: async (s) => {
      const { module } = await run(s, {});
      const React = (await import('react')) as typeof import('react');
      const { renderToString } = (await import('react-dom/server')) as typeof import('react-dom/server');
      const Support = module.Support as (props: { onReply(text: string): void }) => import('react').ReactElement;
      assert.match(renderToString(React.createElement(Support, { onReply: () => {} })), /<ai-chat-widget[^>]*id="support-chat"/);
    },
  },
  {
    file: 'README.md',
    heading: 'Editors and tools',
    lang: 'json',
    how: 'valid JSON naming files the build writes into the package',
    check: (s) => {
      const settings = JSON.parse(s.code) as Record<string, string[]>;
      for (const path of Object.values(settings).flat()) {
        const inPackage = /^\.\/node_modules\/ai-chat-widget\/(.+)$/.exec(path)?.[1] ?? '';
        assert.ok(inPackage.startsWith('dist/'), `${path} is in the package`);
        assert.doesNotThrow(() => readFileSync(join(root, inPackage)), `${inPackage} exists after npm run build`);
      }
    },
  },
  {
    file: 'README.md',
    heading: 'Typed client',
    lang: 'ts',
    how: 'runs against the real service and streams a reply',
    subs: () => [["'http://127.0.0.1:8787/v1'", `'${service.url}/v1'`]],
    check: async (s) => {
      const stdout = await runProgram(s, { AI_CHAT_API_KEY: apiKey });
      assert.ok(stdout.trim().length > 0, 'the stream wrote the reply');
    },
  },
  {
    file: 'README.md',
    heading: 'Secure deployment',
    lang: 'ts',
    how: 'runs; a logged-out visitor gets an anonymous token and chats through it',
    subs: () => [["'https://api.example.com'", `'${service.url}'`], ["'bot_…'", `'${botId}'`]],
    check: (s) => exerciseProxy(s, { AI_CHAT_API_KEY: apiKey, WIDGET_TOKEN_SECRET: SECRET }),
  },
  { file: 'README.md', heading: 'Development', lang: 'sh', how: 'npm scripts exist', check: checkShell },
  { file: 'docs/proxy.md', heading: 'Secure deployment: the token proxy', lang: 'html', how: 'attributes against the reference', check: checkMarkup },
  {
    file: 'docs/proxy.md',
    heading: 'Secure deployment: the token proxy',
    lang: 'ts',
    how: 'runs; a logged-out visitor gets an anonymous token and chats through it',
    subs: () => [["'https://api.example.com'", `'${service.url}'`], ["'bot_123'", `'${botId}'`]],
    check: (s) => exerciseProxy(s, { AI_CHAT_API_KEY: apiKey, AI_CHAT_PROXY_SECRET: SECRET }),
  },
  ...['Node `http`', 'Express', 'Hono', 'Next.js (App Router route handler)', 'Bun', 'Deno', 'Cloudflare Workers'].map(
    (heading): Claim => ({
      file: 'docs/proxy.md',
      heading,
      lang: 'ts',
      how: 'a host snippet of docs/proxy.md',
      delegated: 'the per-IP host snippets are tested with the client-IP work (issue #11, H1)',
    }),
  ),
  { file: 'docs/proxy.md', heading: 'The widget side', lang: 'html', how: 'attributes against the reference', check: checkMarkup },
  {
    file: 'docs/proxy.md',
    heading: 'A proxy on another origin',
    lang: 'html',
    how: 'attributes against the reference; test/widget/deployments.test.ts runs this setup in Chromium',
    check: checkMarkup,
  },
  {
    file: 'docs/proxy.md',
    heading: 'A dev server on another port (demo server)',
    lang: 'sh',
    how: 'the variable is read; test/node/demo-proxy-origins.test.ts runs npm start with it',
    check: checkShell,
  },
];

function claimOf(s: Snippet): Claim[] {
  return CLAIMS.filter((c) => c.file === s.file && c.heading === s.heading && c.lang === s.lang);
}

/** The consumer project: the package (the repo itself) and what its snippets import, linked. */
function setUpConsumer(): void {
  work = mkdtempSync(join(tmpdir(), 'ai-chat-doc-snippets-'));
  const link = (name: string, target = join(root, 'node_modules', name)) => {
    mkdirSync(dirname(join(work, 'node_modules', name)), { recursive: true });
    symlinkSync(target, join(work, 'node_modules', name));
  };
  link('ai-chat-widget', root);
  for (const name of ['@types/node', '@types/react', '@types/react-dom', 'react', 'react-dom', 'tsx']) link(name);
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'doc-snippets', private: true, type: 'module' }));
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        jsx: 'react-jsx',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['snippets'],
    }),
  );
  mkdirSync(join(work, 'snippets'));
  snippets.forEach((s, index) => {
    const claim = claimOf(s)[0];
    if (!claim || claim.delegated || (s.lang !== 'ts' && s.lang !== 'tsx')) return;
    let code = s.code;
    for (const [written, runWith] of claim.subs?.() ?? []) {
      assert.equal(code.split(written).length - 1, 1, `${s.file}:${s.line} holds ${written} once`);
      code = code.replace(written, runWith);
    }
    // what the snippet defines, for the checks (a snippet is shown as a script, not a module)
    if (/^const proxy\b/m.test(code)) code += '\nexport { proxy };\n';
    // tsx reads the JSX runtime from a pragma (the consumer's tsconfig is not the test process's)
    if (s.lang === 'tsx') code = `/** @jsxRuntime automatic */\n/** @jsxImportSource react */\n${code}`;
    const file = join(work, 'snippets', `snippet-${index}.${s.lang}`);
    writeFileSync(file, code);
    modules.set(s, file);
  });
}

describe('documentation snippets', () => {
  before(async () => {
    service = await startService();
    apiKey = (await service.service.createAccount({ name: 'doc snippets' })).apiKey;
    botId = await createBot(service.url, apiKey);
    setUpConsumer(); // after the service: the substitutions name its URL and bot
  });
  after(async () => {
    await service?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('every snippet is claimed by exactly one check, and every check finds its snippet', () => {
    const unclaimed = snippets.filter((s) => claimOf(s).length !== 1).map((s) => `${s.file}:${s.line} (${s.heading}, ${s.lang})`);
    assert.deepEqual(unclaimed, [], 'add a claim (how the snippet is exercised) to CLAIMS');
    const stale = CLAIMS.filter((c) => !snippets.some((s) => claimOf(s).includes(c))).map((c) => `${c.file} ${c.heading} ${c.lang}`);
    assert.deepEqual(stale, [], 'these claims find no snippet any more');
  });

  it('the TypeScript snippets type-check in a project that installed the package', () => {
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    try {
      execFileSync(tsc, ['-p', work], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      assert.fail(`tsc:\n${(error as { stdout?: string }).stdout ?? error}`);
    }
  });

  for (const s of snippets) {
    const [claim] = claimOf(s);
    const name = `${s.file}:${s.line} ${s.heading} (${s.lang}): ${claim?.how ?? 'unclaimed'}`;
    if (claim?.delegated) it.todo(`${name}: ${claim.delegated}`);
    else if (claim?.check) it(name, { timeout: 60_000 }, () => claim.check!(s));
  }
});
