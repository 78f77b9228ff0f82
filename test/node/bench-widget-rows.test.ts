/// <reference types="node" />
// The widget rows of the bench carry the throughput goals: append at 1,000 ≤ 16 ms, and the JS heap
// after the largest transcript at most deep-chat's (measured in the same run).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

// The bench is its own TypeScript project (.ts import paths): loaded at run time, typed here by hand.
interface Row { id: string; goal?: string; met?: boolean }
const { browserRows } = (await import(new URL('../../bench/rows.ts', import.meta.url).href)) as {
  browserRows: (results: unknown, sizes: number[], appendAt: number, tokens: number, markdownBytes: number) => Row[];
};

const widget = (heapBytes: number, appendMs: number) => ({
  bootMs: 30, openFocusMs: 20, renderMs: { 100: 10, 1000: 50, 5000: 300 }, appendMs,
  streamLongestTaskMs: 0, streamMainThreadMs: 500, heapBytes, warnings: [],
});

const rowsOf = (ours: ReturnType<typeof widget>, deep: ReturnType<typeof widget>) =>
  new Map(browserRows({ ours, deep, chromiumVersion: 'test' }, [100, 1000, 5000], 1000, 1000, 1024).map((r) => [r.id, r]));

describe('bench widget rows', () => {
  it('the heap row is met only at or below deep-chat, in the same run', () => {
    const deep = widget(3.5e6, 10);
    const heap = rowsOf(widget(2.9e6, 12), deep).get('browser.heap')!;
    assert.equal(heap.goal, '≤ deep-chat');
    assert.equal(heap.met, true);
    assert.equal(rowsOf(widget(3.5e6, 12), deep).get('browser.heap')!.met, true);
    assert.equal(rowsOf(widget(3.6e6, 12), deep).get('browser.heap')!.met, false);
  });

  it('the append row is met at 16 ms at most', () => {
    const deep = widget(3.5e6, 10);
    assert.equal(rowsOf(widget(2.9e6, 16), deep).get('browser.append')!.met, true);
    assert.equal(rowsOf(widget(2.9e6, 16.1), deep).get('browser.append')!.met, false);
  });
});
