/**
 * Knowledge writes on the largest knowledge base: what one write costs until it is
 * searchable, how long the event loop is blocked while writes land and while a cold index is
 * built, and search latency once the writes are in.
 *
 * The bench server shares this process, so an event-loop delay histogram here sees every block
 * the service causes (and the load generator's own, which is small: one request at a time).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sequentialLatency, type LatencyResult } from './lib/latency.ts';
import { percentile } from './lib/stats.ts';

export interface KnowledgeWriteResults {
  entries: number;
  /** Milliseconds from sending a write (create, update or delete, in turn) to its search answering. */
  writeToSearchable: { count: number; p50: number; p99: number };
  /** The longest event-loop block while the writes and their searches ran. */
  longestBlockDuringWritesMs: number;
  /** The longest event-loop block while the index was built cold (the first search after a bulk load). */
  longestBlockDuringColdBuildMs: number;
  coldBuildMs: number;
  searchAfterWrites: LatencyResult;
}

/** Runs `work` and answers the longest event-loop block seen meanwhile (1 ms resolution). */
export async function longestBlock<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  try {
    const result = await work();
    return { result, longestMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

async function send(url: string, init: RequestInit): Promise<{ id?: string }> {
  const res = await fetch(url, init);
  const body = (await res.json()) as { data?: { id?: string; items?: { entry_id: string }[] } };
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}`);
  return body.data ?? {};
}

/**
 * The first search builds the index (the caller has bumped the revision without logging a change,
 * so it must); then `writes` rounds of create → search, update → search, delete → search, each
 * search checking that it sees its write (a stale answer fails the bench).
 */
export async function measureKnowledgeWrites(
  base: string,
  apiKey: string,
  entries: number,
  writes: number,
  latencyMs: number,
): Promise<KnowledgeWriteResults> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const search = async (q: string) => {
    const data = (await send(`${base}/v1/knowledge/search?q=${encodeURIComponent(q)}&limit=5`, { headers })) as { items?: { entry_id: string }[] };
    return (data.items ?? []).map((h) => h.entry_id);
  };
  const cold = performance.now();
  const build = await longestBlock(() => search('refund for a damaged package'));
  const coldBuildMs = performance.now() - cold;

  const samples: number[] = [];
  const timed = async (write: () => Promise<unknown>, check: () => Promise<boolean>) => {
    const started = performance.now();
    await write();
    if (!(await check())) throw new Error('a knowledge write was not searchable at once');
    samples.push(performance.now() - started);
  };
  const during = await longestBlock(async () => {
    for (let i = 0; i < writes; i++) {
      const word = `zyzzyva${i}x`;
      let id = '';
      await timed(
        async () => (id = (await send(`${base}/v1/knowledge`, { method: 'POST', headers, body: JSON.stringify({ title: `Bench write ${i}`, content: `A ${word} ate the refund.` }) })).id!),
        async () => (await search(word)).includes(id),
      );
      await timed(
        () => send(`${base}/v1/knowledge/${id}`, { method: 'PUT', headers, body: JSON.stringify({ content: `A q${word} kept the package.` }) }),
        async () => (await search(`q${word}`)).includes(id),
      );
      await timed(
        () => send(`${base}/v1/knowledge/${id}`, { method: 'DELETE', headers }),
        async () => !(await search(`q${word}`)).includes(id),
      );
    }
  });
  const spec = { url: `${base}/v1/knowledge/search?q=${encodeURIComponent('refund for a damaged package')}&limit=5`, method: 'GET' as const, headers };
  return {
    entries,
    writeToSearchable: { count: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) },
    longestBlockDuringWritesMs: during.longestMs,
    longestBlockDuringColdBuildMs: build.longestMs,
    coldBuildMs,
    searchAfterWrites: await sequentialLatency(spec, latencyMs, 5),
  };
}
