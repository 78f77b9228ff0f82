/**
 * Sequential request timing with sub-millisecond resolution (autocannon's histogram is in whole
 * milliseconds, too coarse for "≤ 1 ms of proxy overhead"). One keep-alive connection, one request
 * at a time, for `durationMs` after `warmup` requests.
 */
import { Agent, request } from 'node:http';
import { percentile } from './stats.ts';

export interface RequestSpec {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

function once(agent: Agent, spec: RequestSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(spec.url, { method: spec.method, headers: spec.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        if ((res.statusCode ?? 500) >= 400) reject(new Error(`${spec.method} ${spec.url} answered ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

export interface LatencyResult {
  count: number;
  p50: number;
  p99: number;
}

export async function sequentialLatency(spec: RequestSpec, durationMs: number, warmup = 20): Promise<LatencyResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < warmup; i++) await once(agent, spec);
    const samples: number[] = [];
    const end = performance.now() + durationMs;
    while (performance.now() < end) samples.push(await once(agent, spec));
    return { count: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) };
  } finally {
    agent.destroy();
  }
}
