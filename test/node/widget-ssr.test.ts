/// <reference types="node" />
// The widget's modules must import in Node without a DOM (server-side rendering, SSR frameworks,
// tests): no `window`, `document` or `customElements` access at module top level.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

describe('widget modules in Node (no DOM)', () => {
  it('import without throwing and export the element class', async () => {
    assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
    const element = await import('../../src/element.js');
    assert.equal(typeof element.AiChatWidget, 'function');
    assert.equal(typeof element.renderMarkdown, 'function');
    const entry = await import('../../src/ai-chat-widget.js');
    assert.equal(entry.AiChatWidget, element.AiChatWidget);
    // loading the registering entry a second time is harmless
    const again = '../../src/ai-chat-widget.ts?again';
    await import(again);
  });

  it('resolve strings and render markdown to templates', async () => {
    const { loadStrings, resolveStrings, renderMarkdown } = await import('../../src/element.js');
    assert.equal((await loadStrings('de-AT')).send, 'Senden');
    assert.equal(resolveStrings('de-AT').send, 'Senden', 'loaded once, then at hand');
    assert.equal(resolveStrings('xx').send, 'Send');
    assert.equal(resolveStrings('fr', { send: 'Go' }).send, 'Go');
    assert.ok(renderMarkdown('**hi** <b>x</b>'));
  });
});
