/// <reference types="node" />
// Every fenced snippet in README.md and docs/*.md is exercised: a snippet nobody
// runs goes stale (the README's createProxy once called an undefined `sessionUserId` and gave
// logged-out visitors no token). Each snippet must be claimed below by a check, and each check must
// still find its snippet, so a new or moved snippet fails here until someone says how it is tested.
//
// TypeScript snippets are type-checked together, as a consumer project that installed the package
// sees them (the built `dist/`: run `npm run build` first, as `npm test` does), and the runnable ones
// run against the real service: the createProxy snippets mint a token for a logged-out visitor, the
// client snippet chats, the React snippet renders. A run changes only what the `subs` of a claim
// list (the service's URL, a real bot id, real options for `…`), each of which must occur in the
// snippet exactly once; a `prelude` adds before a snippet what it uses but does not define.
// docs/proxy.md's hosts: Next.js and Cloudflare Workers run as written, called as those hosts call
// them; Bun and Deno do not run here, so their snippets run against a stand-in of the one host API
// they call (`serveIn`); Node `http`, Express and Hono run in proxy-client-ip.test.ts (checked here).
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
  /**
   * TypeScript: code written before the snippet in its module, for what the snippet uses without
   * defining it (the `proxy` of the page's first snippet, a host's global); never part of a sub.
   */
  prelude?: () => string;
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

type Handler = (request: Request) => Promise<Response>;

/**
 * A logged-out visitor of `origin` gets a token from `handler` at `{base}/token` and chats with it
 * at `{base}/v1/bots/{bot}/messages` (the real service answers): the token's answer.
 */
async function chatThrough(handler: Handler, base: string, origin: string): Promise<{ token: string; bot_id: string; api_base: string }> {
  const minted = await handler(new Request(`${base}/token`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' }));
  const body = (await minted.json()) as { data?: { token: string; user_id: string; bot_id: string; api_base: string } };
  assert.equal(minted.status, 200, `a logged-out visitor gets a token: ${JSON.stringify(body)}`);
  assert.match(body.data!.user_id, /^anon_/);
  const reply = await handler(
    new Request(`${base}/v1/bots/${body.data!.bot_id}/messages`, {
      method: 'POST',
      headers: { origin, authorization: `Bearer ${body.data!.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    }),
  );
  const answer = await reply.text();
  assert.equal(reply.status, 200, `and chats with the bot through the proxy: ${answer}`);
  assert.match(answer, /Hello!/, "the service's reply (the bot's greet intent) comes back");
  return body.data!;
}

/** A createProxy snippet: a logged-out visitor from an allowed origin gets a token and chats with it. */
async function exerciseProxy(s: Snippet, env: Record<string, string>): Promise<void> {
  const { module } = await run(s, env);
  const proxy = module.proxy as { fetch: Handler };
  await chatThrough(proxy.fetch, 'https://app.example', 'https://shop.example');
}

/** The per-IP budget of the proxy the Bun and Deno snippets are given (`hostProxy`). */
const PER_IP = 3;

/**
 * What the Bun and Deno snippets use and another snippet defines: `proxy`, created as the page's
 * first snippet creates it, against the real service, with a per-IP limit small enough to reach.
 */
const hostProxy = () => `import { createProxy } from 'ai-chat-widget/proxy';
const proxy = createProxy({
  apiKey: process.env.AI_CHAT_API_KEY!,
  upstream: '${service.url}',
  secret: process.env.AI_CHAT_PROXY_SECRET!,
  botId: '${botId}',
  allowAnonymous: true,
  rateLimit: { perIp: { points: ${PER_IP}, windowSeconds: 60 } },
});
`;

/**
 * Imports the module of a host snippet with `name` (Bun, Deno) standing in as a global for as long
 * as the snippet runs (libraries look for these globals to detect their runtime); what `serve` kept.
 */
async function serveIn<T>(s: Snippet, name: 'Bun' | 'Deno', standIn: (keep: (served: T) => void) => unknown): Promise<T> {
  let served: T | undefined;
  const global = globalThis as Record<string, unknown>;
  assert.equal(global[name], undefined, `no real ${name} here`);
  global[name] = standIn((value) => (served = value));
  try {
    await run(s, { AI_CHAT_API_KEY: apiKey, AI_CHAT_PROXY_SECRET: SECRET });
  } finally {
    delete global[name];
  }
  assert.ok(served, `the snippet called ${name}.serve`);
  return served;
}

/**
 * The client address a host hands over reaches the proxy: `from(address)` is the host's handler
 * for requests from `address`. A chats (token + message), then uses up its per-IP budget; B, another
 * address, still gets a token. A host that passed no address would give A no limit at all.
 */
async function assertClientsApart(from: (address: string) => Handler, base: string, origin: string, perIp: number): Promise<void> {
  const [a, b] = [from('203.0.113.7'), from('203.0.113.8')];
  await chatThrough(a, base, origin); // two requests
  const token = (handler: Handler) =>
    handler(new Request(`${base}/token`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' }));
  for (let i = 2; i < perIp; i++) assert.equal((await token(a)).status, 200, `request ${i + 1} from A`);
  const refused = await token(a);
  assert.equal(refused.status, 429, `A's request ${perIp + 1} is over the per-IP limit: ${await refused.clone().text()}`);
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'rate_limited');
  const other = await token(b);
  assert.equal(other.status, 200, `B has a budget of its own: ${await other.text()}`);
}

/**
 * The Node `http`, Express and Hono snippets run in test/node/proxy-client-ip.test.ts, which reads
 * each from docs/proxy.md (`snippet(heading)`), asserts the line below is in it, and runs that line
 * with two client addresses (`assertClientsApart`) against the real service. This checks that it
 * still does: the snippet shows `shown`, and the test's case for the heading runs `runs`.
 */
const runByClientIpTest =
  (shown: string, runs: string) =>
  (s: Snippet): void => {
    assert.ok(s.code.includes(shown), `the snippet shows ${shown}`);
    const source = read('test/node/proxy-client-ip.test.ts');
    const cases = source.split(/\n {2}(?=it\b)/).filter((c) => c.includes(`snippet('${s.heading}')`));
    assert.equal(cases.length, 1, `one case of proxy-client-ip.test.ts reads snippet('${s.heading}')`);
    assert.ok(cases[0]!.startsWith('it('), 'that case runs (no it.skip or it.todo)');
    assert.ok(cases[0]!.includes(runs), `that case runs ${runs}`);
    assert.match(cases[0]!, /await (withServer\([^;]*assertClientsApart|assertClientsApart\()/s, 'with two client addresses');
    assert.match(source, /^describe\('proxy: per-IP limits in each documented host'/m, 'not skipped');
  };

/** The `proxy` of the page's first snippet, for the host snippets that use it (type-checked only). */
const declaredProxy = () => "import type { Proxy } from 'ai-chat-widget/proxy';\ndeclare const proxy: Proxy; // the page's first snippet\n";

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
  {
    file: 'docs/proxy.md',
    heading: 'Node `http`',
    lang: 'ts',
    how: 'type-checked; run by test/node/proxy-client-ip.test.ts with two client addresses (checked here)',
    prelude: declaredProxy,
    check: runByClientIpTest('createServer(toNodeHandler(proxy))', 'createServer(toNodeHandler(createProxy(options())))'),
  },
  {
    file: 'docs/proxy.md',
    heading: 'Express',
    lang: 'ts',
    how: 'type-checked; run by test/node/proxy-client-ip.test.ts with two client addresses (checked here)',
    prelude: declaredProxy,
    check: runByClientIpTest("app.use('/ai', toNodeHandler(proxy))", "app.use('/ai', toNodeHandler(createProxy(options())))"),
  },
  {
    file: 'docs/proxy.md',
    heading: 'Hono',
    lang: 'ts',
    how: 'type-checked; run by test/node/proxy-client-ip.test.ts with two client addresses (checked here)',
    prelude: () => "import { Hono } from 'hono';\nimport { createProxy } from 'ai-chat-widget/proxy';\nconst app = new Hono();\n",
    subs: () => [['…', `apiKey: 'key', upstream: '${service.url}', secret: '${SECRET}', botId: '${botId}', allowAnonymous: true`]],
    check: runByClientIpTest(
      "app.all('/ai/*', (c) => proxy.handle(c.req.raw, { clientIp: getConnInfo(c).remote.address }));",
      "app.all('/ai/*', (c) => proxy.handle(c.req.raw, { clientIp: getConnInfo(c).remote.address }));",
    ),
  },
  {
    file: 'docs/proxy.md',
    heading: 'Next.js (App Router route handler)',
    lang: 'ts',
    how: 'runs; Next calls its GET/POST/OPTIONS: a preflight, a token for a logged-out visitor, a chat and the bot read under /api/ai',
    subs: () => [
      [
        '…',
        `apiKey: process.env.AI_CHAT_API_KEY!, upstream: '${service.url}', secret: process.env.AI_CHAT_PROXY_SECRET!, botId: '${botId}', allowAnonymous: true, allowedOrigins: ['https://www.example.com']`,
      ],
    ],
    check: async (s) => {
      const { module } = await run(s, { AI_CHAT_API_KEY: apiKey, AI_CHAT_PROXY_SECRET: SECRET });
      // Next calls an exported method unbound, with the request and the route's context
      type RouteHandler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>;
      const [GET, POST, OPTIONS] = (['GET', 'POST', 'OPTIONS'] as const).map((method) => module[method] as RouteHandler);
      const site = 'https://shop.example'; // the app: the widget's token-url="/api/ai/token" is on its own origin
      const next = (request: Request) => {
        const path = new URL(request.url).pathname.replace(/^\/api\/ai\//, '').split('/');
        const handler = { GET, POST, OPTIONS }[request.method as 'GET' | 'POST' | 'OPTIONS'];
        assert.ok(handler, `the route exports ${request.method}`);
        return handler(request, { params: Promise.resolve({ path }) });
      };
      const minted = await chatThrough(next, `${site}/api/ai`, site);
      assert.equal(minted.api_base, '/api/ai/v1', 'the base-url the page is told to use');
      const bot = await next(new Request(`${site}/api/ai/v1/bots/${minted.bot_id}`, { headers: { origin: site, authorization: `Bearer ${minted.token}` } }));
      assert.equal(bot.status, 200, `GET reads the token's bot: ${await bot.clone().text()}`);
      assert.equal(((await bot.json()) as { data: { id: string } }).data.id, botId);
      const preflight = await next(
        new Request(`${site}/api/ai/token`, {
          method: 'OPTIONS',
          headers: { origin: 'https://www.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        }),
      );
      assert.ok(preflight.status >= 200 && preflight.status < 300, `OPTIONS answers the preflight: ${preflight.status}`);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://www.example.com');
    },
  },
  {
    file: 'docs/proxy.md',
    heading: 'Bun',
    lang: 'ts',
    how: 'runs with a stand-in Bun.serve (no Bun here); a visitor chats, and the per-IP limit counts server.requestIP() of two addresses apart',
    prelude: () =>
      `${hostProxy()}/** The part of Bun's API the snippet calls: no Bun here, the check stands in for Bun.serve. */
declare const Bun: {
  serve(options: {
    port: number;
    fetch(request: Request, server: { requestIP(request: Request): { address: string; family: string; port: number } | null }): Response | Promise<Response>;
  }): unknown;
};
`,
    check: async (s) => {
      type Served = { port: number; fetch(request: Request, server: { requestIP(request: Request): { address: string; family: string; port: number } | null }): Promise<Response> };
      // Stand-in for Bun.serve: keeps the options; the check then plays the server, handing the
      // snippet's fetch each request with a `server` whose requestIP() names the client.
      const served = await serveIn<Served>(s, 'Bun', (keep) => ({ serve: (options: Served) => (keep(options), {}) }));
      assert.equal(served.port, 3000);
      const from = (address: string) => (request: Request) => served.fetch(request, { requestIP: () => ({ address, family: 'IPv4', port: 52000 }) });
      await assertClientsApart(from, 'http://localhost:3000', 'http://localhost:3000', PER_IP);
    },
  },
  {
    file: 'docs/proxy.md',
    heading: 'Deno',
    lang: 'ts',
    how: 'runs with a stand-in Deno.serve (no Deno here); a visitor chats, and the per-IP limit counts info.remoteAddr of two addresses apart',
    prelude: () =>
      `${hostProxy()}/** The part of Deno's API the snippet calls: no Deno here, the check stands in for Deno.serve. */
declare const Deno: {
  serve(handler: (request: Request, info: { remoteAddr: { transport: 'tcp'; hostname: string; port: number } }) => Response | Promise<Response>): unknown;
};
`,
    check: async (s) => {
      type Served = (request: Request, info: { remoteAddr: { transport: 'tcp'; hostname: string; port: number } }) => Promise<Response>;
      // Stand-in for Deno.serve: keeps the handler; the check then plays the server, handing it
      // each request with the `info` Deno gives, whose remoteAddr names the client.
      const handler = await serveIn<Served>(s, 'Deno', (keep) => ({ serve: (served: Served) => (keep(served), {}) }));
      const from = (hostname: string) => (request: Request) => handler(request, { remoteAddr: { transport: 'tcp', hostname, port: 52000 } });
      await assertClientsApart(from, 'http://localhost:8000', 'http://localhost:8000', PER_IP);
    },
  },
  {
    file: 'docs/proxy.md',
    heading: 'Cloudflare Workers',
    lang: 'ts',
    how: "runs: the Worker's default export is called as Workers would, fetch(request, env); a visitor chats, and CF-Connecting-IP is counted per IP",
    subs: () => [["'https://api.example.com'", `'${service.url}'`], ["'bot_123'", `'${botId}'`]],
    check: async (s) => {
      const { module } = await run(s, {});
      // No Workers runtime here: Workers would call the default export's fetch with the bindings.
      const worker = module.default as { fetch(request: Request, env: { AI_CHAT_API_KEY: string; AI_CHAT_PROXY_SECRET: string }): Promise<Response> };
      const env = { AI_CHAT_API_KEY: apiKey, AI_CHAT_PROXY_SECRET: SECRET };
      const site = 'https://chat.example.workers.dev';
      // Cloudflare sets CF-Connecting-IP on every request; the snippet trusts it. The default per-IP limit is 60.
      const from = (address: string) => (request: Request) => {
        request.headers.set('cf-connecting-ip', address);
        return worker.fetch(request, env);
      };
      await assertClientsApart(from, site, site, 60);
    },
  },
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

CLAIMS.push(
  {
    file: 'docs/handoff.md',
    heading: 'Bot settings',
    lang: 'json',
    how: 'PUT to the real service for a bot: accepted and answered as written',
    check: async (s) => {
      const settings = JSON.parse(s.code) as { enabled: boolean; after_fallbacks: number; intents: string[]; hours: unknown };
      const response = await fetch(`${service.url}/v1/bots/${botId}/handoff`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: s.code,
      });
      const body = (await response.json()) as { data: typeof settings };
      assert.equal(response.status, 200, JSON.stringify(body));
      for (const key of ['enabled', 'after_fallbacks', 'intents', 'hours'] as const) assert.deepEqual(body.data[key], settings[key], key);
    },
  },
  {
    file: 'docs/handoff.md',
    heading: 'Typed client',
    lang: 'ts',
    how: 'type-checked with its free names declared; server/test/handoff-client.test.ts runs the same loop against the real service',
    prelude: () =>
      `declare const conversationId: string;
declare const signal: AbortSignal;
declare function getToken(): Promise<string>;
declare function show(message: import('ai-chat-widget/client').Message): void;
declare function banner(status: string, name?: string): void;
declare function showTyping(operator: unknown): void;
import { AiChatClient } from 'ai-chat-widget/client';
`,
    check: (s) => {
      assert.match(s.code, /client\.handoff\.events\(conversationId/);
      assert.match(read('server/test/handoff-client.test.ts'), /handoff\.events\(/, 'the loop runs against the real service there');
    },
  },
  {
    file: 'docs/attachments.md',
    heading: 'Typed client',
    lang: 'ts',
    how: 'type-checked with its free names declared; test/node/proxy-attachments.test.ts runs the same calls against the real service',
    prelude: () => "import { AiChatClient } from 'ai-chat-widget/client';\ndeclare const apiKey: string;\ndeclare const botId: string;\ndeclare const photo: Blob;\n",
    check: () => assert.match(read('test/node/proxy-attachments.test.ts'), /the typed client uploads, sends and downloads/),
  },
  {
    file: 'docs/handoff.md',
    heading: 'Your own helpdesk',
    lang: 'ts',
    how: 'type-checked against the package (the event map types `event`); test/widget/handoff.test.ts cancels the ask in Chromium',
    prelude: () => "import 'ai-chat-widget';\ndeclare function openMyHelpdesk(context: { transcript: unknown; conversationId: string }): void;\n",
    check: (s) => {
      assert.match(s.code, /event\.preventDefault\(\)/);
      assert.match(read('test/widget/handoff.test.ts'), /a host with its own helpdesk cancels the ask/);
    },
  },
);

/** Every `name/` a layer picture names is a folder of one of `roots` (the picture cannot drift from the tree). */
const checkFolders =
  (...roots: string[]) =>
  (s: Snippet): void => {
    const named = [...s.code.matchAll(/(?<![\w./<])([a-z][\w-]*)\/(?![\w.])/g)].map((m) => m[1]!);
    assert.ok(named.length >= 5, 'the picture names folders');
    const folders = new Set(roots.flatMap((r) => readdirSync(join(root, r), { withFileTypes: true, recursive: true }).filter((e) => e.isDirectory()).map((e) => e.name)));
    for (const name of named) assert.ok(folders.has(name), `${name}/ is a folder in ${roots.join(' or ')}`);
  };

CLAIMS.push(
  { file: 'README.md', heading: 'Quick start (30 seconds)', lang: 'html', how: 'attributes against the reference; test/node/one-snippet.test.ts pastes the dashboard\'s snippet on another origin', check: checkMarkup },
  { file: 'docs/architecture.md', heading: 'The service, `server/src/`', lang: 'text', how: 'every folder it names exists in server/src', check: checkFolders('server/src') },
  { file: 'docs/architecture.md', heading: 'The browser side, `src/`', lang: 'text', how: 'every folder it names exists in src or src/widget', check: checkFolders('src', 'src/widget') },
  {
    file: 'docs/channels.md',
    heading: 'Before you start: the secrets key',
    lang: 'sh',
    how: 'the service reads the variable; the command writes a key of the length it takes (32 bytes)',
    check: (s) => {
      assert.match(s.code, /export AI_CHAT_SECRETS_KEY="\$\(openssl rand -base64 32\)"/);
      assert.ok(serverSource().includes('AI_CHAT_SECRETS_KEY'), 'the service reads AI_CHAT_SECRETS_KEY');
      assert.equal(Buffer.from(execFileSync('openssl', ['rand', '-base64', '32'], { encoding: 'utf8' }).trim(), 'base64').length, 32);
    },
  },
  {
    file: 'docs/webhooks.md',
    heading: 'Subscribing',
    lang: 'sh',
    how: 'its body is a subscription the real service accepts (created disabled and deleted at once: nothing is sent)',
    check: async (s) => {
      const body = JSON.parse(/-d '([^']+)'/.exec(s.code)![1]!) as { url: string; events: string[] };
      assert.match(s.code, /curl -X POST "\$AI_CHAT_URL\/v1\/webhooks"/);
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${service.url}${path}`, { ...init, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } });
      const response = await call('/v1/webhooks', { method: 'POST', body: JSON.stringify({ ...body, enabled: false }) });
      const answer = (await response.json()) as { data: { id: string; secret: string; events: string[] } };
      assert.equal(response.status, 201, JSON.stringify(answer));
      assert.equal((await call(`/v1/webhooks/${answer.data.id}`, { method: 'DELETE' })).status, 200);
      assert.deepEqual(answer.data.events, body.events);
      assert.match(answer.data.secret, /^whsec_/);
    },
  },
  {
    file: 'docs/webhooks.md',
    heading: 'Events',
    lang: 'json',
    how: 'valid JSON of an event type the service documents (its OpenAPI list); server/test/webhooks.test.ts receives such events from the real service',
    check: async (s) => {
      const event = JSON.parse(s.code) as { type: string; data: { message: { id: string } } };
      const document = (await (await fetch(`${service.url}/v1/openapi.json`)).json()) as { components: { schemas: Record<string, { properties: { events: { items: { enum: string[] } } } }> } };
      assert.ok(document.components.schemas.WebhookInput!.properties.events.items.enum.includes(event.type), event.type);
      assert.ok(event.data.message.id);
      assert.match(read('server/src/webhooks/schema.ts'), new RegExp(`'${event.type.replace('.', '\\.')}'`), 'the service sends this type');
    },
  },
  {
    file: 'docs/webhooks.md',
    heading: 'Verifying a request',
    lang: 'js',
    how: 'the same library call server/test/webhooks.test.ts verifies real deliveries with',
    check: (s) => {
      assert.match(s.code, /new Webhook\(process\.env\.CHAT_WEBHOOK_SECRET\)/);
      assert.match(s.code, /wh\.verify\(req\.body, req\.headers\)/);
      assert.match(read('server/test/webhooks.test.ts'), /import \{ Webhook \} from 'standardwebhooks'/);
      assert.match(read('server/test/webhooks.test.ts'), /\.verify\(/, 'the test verifies deliveries with the library');
    },
  },
);

CLAIMS.push(
  {
    file: 'docs/mobile.md',
    heading: 'React Native: the typed client',
    lang: 'ts',
    how: 'type-checked against the package; test/node/react-native-client.test.ts makes the same calls in a runtime shaped like React Native\'s against the real service',
    prelude: () => 'declare const session: string;\n',
    check: (s) => {
      assert.match(s.code, /fetch: xhrFetch/);
      assert.match(s.code, /client\.bots\.streamMessage\(/);
      const test = read('test/node/react-native-client.test.ts');
      assert.match(test, /it\('streams a reply over XMLHttpRequest/);
      assert.match(test, /getToken: async/);
      assert.match(test, /fetch: xhrFetch/);
    },
  },
  {
    file: 'docs/mobile.md',
    heading: 'The page the WebView loads',
    lang: 'html',
    how: 'attributes against the reference; test/widget/webview.test.ts lays the widget out in a page of the same style at a phone\'s size',
    check: (s) => {
      checkMarkup(s);
      assert.match(s.code, /<meta name="viewport" content="[^"]*viewport-fit=cover/);
      assert.match(s.code, /<ai-chat-widget mode="fullpage"/);
      const style = /html, body \{ ([^}]+?);? \}/.exec(s.code)![1]!;
      assert.ok(read('test/widget/webview.test.ts').includes(`'${style}'`), `the test's page has the style ${style}`);
    },
  },
);

/** The property names a JSON Schema object (or its non-null `oneOf` branch) allows. */
function schemaKeys(schema: unknown): string[] {
  const node = schema as { properties?: Record<string, unknown>; oneOf?: { type?: string }[] };
  const object = node.oneOf ? node.oneOf.find((branch) => branch.type !== 'null') : node;
  return Object.keys((object as { properties?: object }).properties ?? {});
}

CLAIMS.push(
  {
    file: 'docs/visitor-context.md',
    heading: 'Consent: `no-visitor-context`',
    lang: 'html',
    how: 'attributes against the reference; test/widget/visitor-context.test.ts mounts a widget with it and finds nothing of the page stored',
    check: (s) => {
      checkMarkup(s);
      assert.match(s.code, /\bno-visitor-context\b/);
      assert.match(read('test/widget/visitor-context.test.ts'), /'no-visitor-context'/);
    },
  },
  {
    file: 'docs/visitor-context.md',
    heading: '`identify()`',
    lang: 'js',
    how: 'the calls test/dashboard/inbox-visitor.test.ts makes on a real widget before the inbox shows the traits',
    check: (s) => {
      assert.match(s.code, /chat\.identify\('user_42'\)/);
      assert.match(s.code, /chat\.identify\(\{ id: 'user_42', name: /);
      assert.match(read('test/dashboard/inbox-visitor.test.ts'), /widget\.identify\(\{ id: user, name: '[^']+', email: /);
    },
  },
  {
    file: 'docs/visitor-context.md',
    heading: 'In the inbox',
    lang: 'json',
    how: 'valid JSON whose every field is one the route\'s response schema names (server/src/conversations/visitor.ts); server/test/visitor-context.test.ts reads the route',
    check: async (s) => {
      // read at run time: the root's type check does not compile the service's sources
      const route = new URL('../../server/src/conversations/visitor.ts', import.meta.url).href;
      const { inboxVisitorSchema } = (await import(route)) as { inboxVisitorSchema: unknown };
      const answer = JSON.parse(s.code) as { visitor: Record<string, unknown>; earlier: Record<string, unknown>[] };
      const properties = (inboxVisitorSchema as { properties: Record<string, { items?: unknown }> }).properties;
      assert.deepEqual(Object.keys(answer).sort(), schemaKeys(inboxVisitorSchema).sort());
      for (const key of Object.keys(answer.visitor)) assert.ok(schemaKeys(properties.visitor).includes(key), `visitor.${key}`);
      for (const key of Object.keys(answer.earlier[0]!)) assert.ok(schemaKeys(properties.earlier!.items).includes(key), `earlier[].${key}`);
    },
  },
);

CLAIMS.push({
  file: 'docs/dashboard-languages.md',
  heading: 'For developers: strings and catalogs',
  lang: 'ts',
  how: "each line is an entry of the English catalog (src/dashboard/i18n/en/), as written there; test/node/dashboard-i18n.test.ts checks every language's catalog against it",
  check: (s) => {
    const english = readdirSync(join(root, 'src/dashboard/i18n/en')).map((file) => read(`src/dashboard/i18n/en/${file}`)).join('\n');
    const lines = s.code.split('\n').filter((line) => /^\s+'[^']+': /.test(line));
    assert.ok(lines.length >= 2, 'the snippet shows catalog entries');
    for (const line of lines) assert.ok(english.includes(line.trim()), `the English catalog has ${line.trim()}`);
  },
});

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
  for (const name of ['@types/node', '@types/react', '@types/react-dom', 'react', 'react-dom', 'tsx', 'express', '@types/express', 'hono', '@hono/node-server']) link(name);
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
    code = `${claim.prelude?.() ?? ''}${code}`;
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
