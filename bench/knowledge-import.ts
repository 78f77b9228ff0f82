/**
 * `--only=knowledge-import`: what a large knowledge import costs everyone else. One tenant imports
 * a Markdown file of 5,000 headings (5,000 entries; the section cap raised to let it through) and
 * a PDF of 20,000 pages (refused by its page count) while another tenant searches its own small
 * knowledge base, one request at a time, until the import has finished; the same searches with no
 * import running give the baseline. Embedded PGlite, the service in this process: an event-loop
 * block or a held connection delays the other tenant's requests directly.
 *
 *   node --import tsx bench/run.ts --only=knowledge-import --out=/tmp/knowledge-import.json
 */
import { startServer } from '../server/src/index.ts';
import { longestBlock } from './knowledge-writes.ts';
import { percentile } from './lib/stats.ts';
import type { Row } from './lib/table.ts';

export interface KnowledgeImportResults {
  sections: number;
  pdfPages: number;
  importMs: number;
  /** The import job's status and its issue codes. */
  job: { status: string; entries: number; issues: string[] };
  /** The other tenant's search latency while the import ran, and with nothing running. */
  during: { count: number; p50: number; p99: number };
  baseline: { count: number; p50: number; p99: number };
  longestBlockMs: number;
}

const SECTIONS = 5_000;
const PDF_PAGES = 20_000;
const BASELINE_MS = 3_000;

/** A PDF of `pages` one-line pages (uncompressed, cross-reference offsets exact). */
function pdfOfPages(pages: number): Buffer {
  const objects: string[] = ['', '<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (let i = 0; i < pages; i++) {
    const page = 4 + i * 2;
    const stream = `BT /F1 12 Tf 72 720 Td (Page ${i} of the manual.) Tj ET`;
    kids.push(`${page} 0 R`);
    objects[page] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${page + 1} 0 R >>`;
    objects[page + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  const chunks = ['%PDF-1.4\n'];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = length;
    const text = `${id} 0 obj\n${objects[id]}\nendobj\n`;
    chunks.push(text);
    length += text.length;
  }
  chunks.push(`xref\n0 ${objects.length}\n0000000000 65535 f \n`);
  for (let id = 1; id < objects.length; id++) chunks.push(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  chunks.push(`trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(chunks.join(''), 'latin1');
}

export async function measureKnowledgeImport(log: (message: string) => void): Promise<KnowledgeImportResults> {
  const server = await startServer({
    dataDir: 'memory://',
    seed: false,
    logLevel: 'silent',
    port: 0,
    imports: { maxSections: SECTIONS, maxUploadBytes: 16 * 1024 * 1024 },
  });
  try {
    const tenant = async () => {
      const { apiKey } = await server.service.createAccount({ rateLimit: { points: 1e9, durationSeconds: 60 } });
      return async <T>(path: string, body?: unknown): Promise<T> => {
        const res = await fetch(`${server.url}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = (await res.json()) as { success: boolean; data: T };
        if (!json.success) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
        return json.data;
      };
    };
    const importer = await tenant();
    const other = await tenant();
    for (let i = 0; i < 50; i++) await other('/v1/knowledge', { title: `Policy ${i}`, content: `Refunds for order type ${i} are paid within ${i % 7} days.` });

    /** The other tenant's searches, one at a time, until `until` settles (or for `ms` when it is null). */
    const searches = async (until: Promise<unknown> | null, ms = BASELINE_MS) => {
      let done = until === null;
      void until?.finally(() => (done = true));
      const end = performance.now() + ms;
      const samples: number[] = [];
      while (until ? !done : performance.now() < end) {
        const started = performance.now();
        await other('/v1/knowledge/search?q=refund%20paid%20days&limit=5');
        samples.push(performance.now() - started);
      }
      return { count: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) };
    };
    await searches(null, 500); // warm the other tenant's index and connections
    const baseline = await searches(null);

    const markdown = Array.from({ length: SECTIONS }, (_, i) => `## Topic ${i}\n\nThe answer about topic ${i}.\n`).join('\n');
    const pdf = pdfOfPages(PDF_PAGES);
    log(`knowledge import: ${SECTIONS} headings (${Math.round(markdown.length / 1024)} KB) + a ${PDF_PAGES}-page PDF (${(pdf.length / 2 ** 20).toFixed(1)} MB)`);
    const started = performance.now();
    const measured = await longestBlock(async () => {
      const imported = importer<{ entries: number; job: { status: string; issues: { code: string }[] } }>('/v1/knowledge/imports?wait=true', {
        kind: 'files',
        files: [
          { name: 'manual.md', data: Buffer.from(markdown).toString('base64') },
          { name: 'manual.pdf', data: pdf.toString('base64') },
        ],
      });
      const during = await searches(imported);
      return { during, item: await imported, importMs: performance.now() - started };
    });
    const { during, item, importMs } = measured.result;
    return {
      sections: SECTIONS,
      pdfPages: PDF_PAGES,
      importMs,
      job: { status: item.job.status, entries: item.entries, issues: item.job.issues.map((i) => i.code) },
      during,
      baseline,
      longestBlockMs: measured.longestMs,
    };
  } finally {
    await server.close();
  }
}

export function knowledgeImportRows(r: KnowledgeImportResults): Row[] {
  const what = `${r.sections.toLocaleString('en-US')}-heading Markdown + ${r.pdfPages.toLocaleString('en-US')}-page PDF import`;
  return [
    { id: 'knowledge-import.other-tenant.p99', label: `another tenant's search during a ${what}: p99 (p50 ${r.during.p50.toFixed(2)} ms)`, unit: 'ms',
      ours: r.during.p99, deepChat: null, goal: '≤ 50 ms', met: r.during.p99 <= 50,
      note: `${r.during.count} searches over the ${(r.importMs / 1000).toFixed(1)} s import (job ${r.job.status}, ${r.job.entries} entries, issues: ${r.job.issues.join(', ') || 'none'}); with no import p99 ${r.baseline.p99.toFixed(2)} ms` },
    { id: 'knowledge-import.block', label: `${what}: longest event-loop block`, unit: 'ms', ours: r.longestBlockMs, deepChat: null },
  ];
}
