/**
 * A bot's intents as a file and back: CSV (`intent,example,response`: one example and/or one
 * response per row, so a spreadsheet can hold hundreds of intents) and JSON (the `intents` array
 * as `PUT /v1/bots/{id}` takes it). Imports are checked whole before anything changes, each
 * problem with its line, and then merged into the bot's intents or replace them.
 */
import type { Intent } from '../../client/index.js';
import { t } from '../i18n/i18n.js';
import { toCsv, type ExportFile } from './conversation-export.js';

export interface ImportProblem {
  /** 1-based line of the file (of the record's first line in CSV); null when the problem is the whole file's. */
  line: number | null;
  message: string;
}

export type ImportMode = 'merge' | 'replace';

export interface ImportResult {
  intents: Intent[];
  problems: ImportProblem[];
}

/** The service's limits (server/src/bots/schema.ts), checked here so a problem is shown with its line. */
const LIMITS = { intents: 500, examples: 500, responses: 50, suggestions: 10, example: 500, response: 4000, suggestion: 100 };
const NAME = /^[a-z0-9_.-]{1,64}$/;
/** A file larger than this is refused unread: 500 intents of 500 examples fit in far less. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
const COLUMNS = ['intent', 'example', 'response'] as const;

export function intentsCsv(intents: readonly Intent[], filename: string): ExportFile {
  const rows: string[][] = [[...COLUMNS]];
  for (const intent of intents) {
    const count = Math.max(intent.examples.length, intent.responses.length, 1);
    for (let k = 0; k < count; k++) rows.push([intent.name, intent.examples[k] ?? '', intent.responses[k] ?? '']);
  }
  return { filename: `${filename}.csv`, type: 'text/csv;charset=utf-8', text: toCsv(rows) };
}

export function intentsJson(intents: readonly Intent[], filename: string): ExportFile {
  return { filename: `${filename}.json`, type: 'application/json', text: `${JSON.stringify(intents, null, 2)}\n` };
}

/**
 * RFC 4180 records with the line each starts on: quoted fields may hold commas, doubled quotes and
 * line breaks; CRLF or LF ends a record; a leading byte-order mark is skipped. Hand-written rather
 * than a library because the dashboard's size budget has no room for one and this is all it needs.
 */
export function parseCsv(text: string): { records: { line: number; cells: string[] }[]; problems: ImportProblem[] } {
  const records: { line: number; cells: string[] }[] = [];
  const problems: ImportProblem[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) {
            problems.push({ line: start, message: t('file.unclosed') });
            return { records, problems };
          }
          const c = text[i]!;
          if (c === '"' && text[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else if (c === '"') {
            i++;
            break;
          } else {
            if (c === '\n') line++;
            cell += c;
            i++;
          }
        }
        if (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          problems.push({ line, message: t('file.afterQuote') });
          while (i < text.length && text[i] !== ',' && text[i] !== '\n') i++;
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') problems.push({ line, message: t('file.innerQuote') });
          cell += text[i++];
        }
      }
      cells.push(cell);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    records.push({ line: start, cells });
  }
  return { records, problems };
}

/** Undoes the export's formula guard (conversation-export.ts prefixes `'` to a cell starting with = + - @). */
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell).trim();

interface Lined {
  intent: Intent;
  line: number | null;
}

export function intentsFromCsv(text: string): ImportResult {
  const { records, problems } = parseCsv(text);
  const [header, ...rows] = records.filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (!header) return { intents: [], problems: [...problems, { line: null, message: t('file.empty') }] };
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const column = (name: string) => names.indexOf(name);
  for (const name of names) if (!(COLUMNS as readonly string[]).includes(name)) problems.push({ line: header.line, message: t('file.unknownColumn', { name, columns: COLUMNS.join(', ') }) });
  if (column('intent') < 0 || column('example') < 0) problems.push({ line: header.line, message: t('file.header') });
  if (problems.length) return { intents: [], problems };
  const byName = new Map<string, Lined>();
  for (const { line, cells } of rows) {
    if (cells.length !== names.length) {
      problems.push({ line, message: t('file.fields', { count: cells.length, columns: names.length }) });
      continue;
    }
    const name = cells[column('intent')]!.trim();
    const example = unguard(cells[column('example')]!);
    const response = column('response') < 0 ? '' : unguard(cells[column('response')]!);
    if (!NAME.test(name)) {
      problems.push({ line, message: name ? t('file.badName', { name }) : t('file.noName') });
      continue;
    }
    if (!example && !response) problems.push({ line, message: t('file.nothing', { name }) });
    if (example.length > LIMITS.example) problems.push({ line, message: t('file.longExample', { max: LIMITS.example }) });
    if (response.length > LIMITS.response) problems.push({ line, message: t('file.longResponse', { max: LIMITS.response }) });
    const entry = byName.get(name) ?? { intent: { name, examples: [], responses: [] }, line };
    byName.set(name, entry);
    if (example) entry.intent.examples.push(example);
    if (response) entry.intent.responses.push(response);
  }
  return { intents: [...byName.values()].map((e) => e.intent), problems: [...problems, ...limitProblems([...byName.values()])] };
}

/** A parse error that only says the text stopped early (a prefix of valid JSON). */
const endedEarly = (error: unknown) => error instanceof Error && /end of JSON input|Unterminated string/i.test(error.message);

/**
 * The line `JSON.parse` failed on. Engines name no position for most errors, so: the shortest
 * prefix of the text that is already wrong (not just unfinished) ends on that line; found by
 * bisection, a few dozen parses whatever the size.
 */
function jsonErrorLine(text: string, error: unknown): number {
  const lineAt = (end: number) => text.slice(0, end).split('\n').length;
  if (endedEarly(error)) return lineAt(text.length);
  const wrong = (end: number) => {
    try {
      JSON.parse(text.slice(0, end));
      return false;
    } catch (e) {
      return !endedEarly(e);
    }
  };
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (wrong(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lineAt(lo);
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

export function intentsFromJson(text: string): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { intents: [], problems: [{ line: jsonErrorLine(text, error), message: t('file.json', { message }) }] };
  }
  const list = Array.isArray(data) ? data : (data as { intents?: unknown } | null)?.intents;
  if (!Array.isArray(list)) return { intents: [], problems: [{ line: null, message: t('file.notList') }] };
  // The line of each item's "name", for problems: found in order in the text.
  let from = 0;
  const lined: Lined[] = [];
  const problems: ImportProblem[] = [];
  list.forEach((item: unknown, index) => {
    const value = item as Partial<Intent> | null;
    const at = typeof value?.name === 'string' ? text.indexOf(JSON.stringify(value.name), from) : -1;
    if (at >= 0) from = at + 1;
    const line = at >= 0 ? text.slice(0, at).split('\n').length : null;
    const where = t('file.intentAt', { n: index + 1 });
    if (!value || typeof value.name !== 'string' || !NAME.test(value.name)) problems.push({ line, message: t('file.jsonName', { where }) });
    else if (!isStrings(value.examples) || !isStrings(value.responses) || (value.suggestions !== undefined && !isStrings(value.suggestions))) {
      problems.push({ line, message: t('file.jsonLists', { where, name: value.name }) });
    } else {
      const intent: Intent = { name: value.name, examples: value.examples.map((e) => e.trim()).filter(Boolean), responses: value.responses.map((r) => r.trim()).filter(Boolean) };
      if (value.suggestions?.length) intent.suggestions = value.suggestions;
      lined.push({ intent, line });
    }
  });
  return { intents: lined.map((l) => l.intent), problems: [...problems, ...limitProblems(lined)] };
}

/** What the service would refuse in whole intents: none of either list, or too many. */
function limitProblems(lined: readonly Lined[]): ImportProblem[] {
  const problems: ImportProblem[] = [];
  if (lined.length > LIMITS.intents) problems.push({ line: null, message: t('file.tooManyIntents', { count: lined.length, max: LIMITS.intents }) });
  for (const { intent, line } of lined) {
    const tooLong = (items: string[] | undefined, max: number) => (items ?? []).some((t) => t.length > max);
    if (intent.examples.length > LIMITS.examples) problems.push({ line, message: t('file.tooManyExamples', { name: intent.name, count: intent.examples.length, max: LIMITS.examples }) });
    if (intent.responses.length > LIMITS.responses) problems.push({ line, message: t('file.tooManyResponses', { name: intent.name, count: intent.responses.length, max: LIMITS.responses }) });
    if ((intent.suggestions?.length ?? 0) > LIMITS.suggestions || tooLong(intent.suggestions, LIMITS.suggestion)) {
      problems.push({ line, message: t('file.suggestions', { name: intent.name, count: LIMITS.suggestions, max: LIMITS.suggestion }) });
    }
    if (tooLong(intent.examples, LIMITS.example) || tooLong(intent.responses, LIMITS.response)) problems.push({ line, message: t('file.tooLong', { name: intent.name, example: LIMITS.example, response: LIMITS.response }) });
  }
  return problems;
}

const union = (a: readonly string[] = [], b: readonly string[] = []) => [...new Set([...a, ...b])];

/**
 * The bot's intents after the import: `replace` drops the current ones; `merge` adds the imported
 * examples, responses and suggestions to the intents of the same name and appends the others. An
 * intent left without an example or a response is a problem (the service would refuse it).
 */
export function applyImport(current: readonly Intent[], imported: readonly Intent[], mode: ImportMode): ImportResult {
  const result = mode === 'replace' ? [] : current.map((i) => ({ ...i }));
  for (const intent of imported) {
    const same = result.find((i) => i.name === intent.name);
    if (!same) {
      result.push({ ...intent });
      continue;
    }
    same.examples = union(same.examples, intent.examples);
    same.responses = union(same.responses, intent.responses);
    const suggestions = union(same.suggestions, intent.suggestions);
    if (suggestions.length) same.suggestions = suggestions;
  }
  const problems: ImportProblem[] = result.flatMap((i) => [
    ...(i.examples.length ? [] : [{ line: null, message: t('file.noExample', { name: i.name }) }]),
    ...(i.responses.length ? [] : [{ line: null, message: t('file.noResponse', { name: i.name }) }]),
  ]);
  return { intents: result, problems: [...problems, ...limitProblems(result.map((intent) => ({ intent, line: null })))] };
}

/** JSON when the file says so (by name or by its first character), else CSV. */
export function readIntentsFile(name: string, text: string): ImportResult {
  const json = /\.json$/i.test(name) || /^\s*[[{]/.test(text);
  return json ? intentsFromJson(text) : intentsFromCsv(text);
}
