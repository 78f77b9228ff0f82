/**
 * The one result table: a row per metric with our value, deep-chat's (where it has one), their
 * ratio and the goal from the issue. Rows carry a stable `id` so tests can check that none is missing.
 */

export type Unit = 'ms' | 'B' | 'KB' | 'MB' | 'req/s' | 'count' | '%';

export interface Row {
  /** Stable key, independent of the sizes a run used (`--smoke` shrinks them). */
  id: string;
  /** What was measured, as the table prints it. */
  label: string;
  unit: Unit;
  ours: number | null;
  deepChat: number | null;
  /** Human-readable goal, e.g. `≤ 50 ms`. */
  goal?: string;
  /** True when `ours` meets the goal; undefined when there is no goal. */
  met?: boolean;
  /** Why a value is missing or how it was obtained, when it is not obvious. */
  note?: string;
}

/** `ours / deepChat`: below 1 means we are smaller or faster (for req/s, higher is better). */
export function ratio(row: Row): number | null {
  if (row.ours === null || row.deepChat === null || !row.deepChat) return null;
  return row.ours / row.deepChat;
}

function formatValue(value: number | null, unit: Unit): string {
  if (value === null || Number.isNaN(value)) return '—';
  switch (unit) {
    case 'ms':
      return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
    case 'B':
      return `${Math.round(value).toLocaleString('en-US')} B`;
    case 'KB':
      return `${(value / 1024).toFixed(1)} KB`;
    case 'MB':
      return `${(value / 1024 / 1024).toFixed(1)} MB`;
    case 'req/s':
      return `${Math.round(value).toLocaleString('en-US')} req/s`;
    case 'count':
      return String(value);
    case '%':
      return `${value.toFixed(1)} %`;
  }
}

/** Plain-text table, columns padded to their widest cell. */
export function formatTable(rows: readonly Row[]): string {
  const header = ['metric', 'ours', 'deep-chat', 'ratio', 'goal'];
  const cells = rows.map((r) => {
    const q = ratio(r);
    const goal = r.goal ? `${r.goal} ${r.met === undefined ? '' : r.met ? 'ok' : 'MISSED'}`.trim() : '';
    return [r.label, formatValue(r.ours, r.unit), formatValue(r.deepChat, r.unit), q === null ? '' : `${q.toFixed(2)}×`, goal];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
