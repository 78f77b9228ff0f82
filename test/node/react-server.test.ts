/// <reference types="node" />
// `ai-chat-widget/react` in a Next.js App Router tree, against the BUILT package (`npm test` builds
// first). The wrapper uses hooks through @lit/react, so it must be a client module: its file starts
// with 'use client', a Server Components render under the `react-server` condition turns it into a
// client reference instead of running it (React's server build has no useRef), and the client
// side of the same payload renders the element's tag.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { ReactNode } from 'react';

const root = fileURLToPath(new URL('../../', import.meta.url));
const reactEntry = pathToFileURL(`${root}dist/react.js`).href;
const MODULE_ID = 'ai-chat-widget/react';

/** The Server Components payload of a page holding `<AiChatWidget>`, rendered as Next.js's server does. */
async function renderServerComponents(): Promise<string> {
  const script = fileURLToPath(new URL('./fixtures/rsc-render.mjs', import.meta.url));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=react-server', script, reactEntry, MODULE_ID],
      { cwd: root, env: { ...process.env, NODE_ENV: 'production' } },
    );
    return stdout;
  } catch (error) {
    const { stderr, code } = error as { stderr?: string; code?: number };
    assert.fail(`the react-server render exited with ${code}: ${stderr}`);
  }
}

describe('ai-chat-widget/react in React Server Components (Next.js App Router)', () => {
  it("the built dist/react.js starts with the 'use client' directive", () => {
    const built = readFileSync(`${root}dist/react.js`, 'utf8');
    assert.match(built, /^(['"])use client\1;?\n/, 'the bundler dropped the directive');
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, { import?: string }> };
    assert.equal(pkg.exports['./react'].import, './dist/react.js');
  });

  it('renders in a Server Components tree under the react-server condition, and on the client', async () => {
    const payload = await renderServerComponents();
    // the wrapper is a client reference in the payload ("I" row), not server-rendered output
    assert.match(payload, new RegExp(`"${MODULE_ID}"`));
    assert.match(payload, /:I\["(?:ai-chat-widget\/react|\$\d+)",\[\],"AiChatWidget"\]/);
    assert.doesNotMatch(payload, /useRef|:E\{/);

    // The client side of the same payload (what the browser and Next.js's HTML pass do): the
    // reference resolves to the wrapper from the package, and React renders the element's tag.
    const wrapper = (await import(reactEntry)) as Record<string, unknown>;
    const runtime = globalThis as { __turbopack_require__?: (id: string) => unknown };
    runtime.__turbopack_require__ = (id) => {
      assert.equal(id, MODULE_ID);
      return wrapper;
    };
    try {
      const { createFromNodeStream } = await import('react-server-dom-turbopack/client');
      const { renderToString } = await import('react-dom/server');
      const tree = await createFromNodeStream(Readable.from([payload]), {
        moduleMap: { [MODULE_ID]: { '*': { id: MODULE_ID, chunks: [], name: '*' } } },
        moduleLoading: null,
        serverModuleMap: null,
      });
      const html = renderToString(tree as ReactNode);
      // @lit/react sets props as element properties once it runs in the browser: the server HTML
      // is the bare tag inside the server-rendered page
      assert.match(html, /^<main><h1>Help<\/h1><ai-chat-widget[^>]*><\/ai-chat-widget><\/main>$/);
    } finally {
      delete runtime.__turbopack_require__;
    }
  });
});
