/**
 * A conversation's transcript as a JSON or CSV file. The CSV is meant to be opened in a spreadsheet,
 * and visitor messages are untrusted: a cell that starts with `=`, `+`, `-`, `@` (or a tab or
 * carriage return, which some spreadsheets skip before reading a formula) is prefixed with `'`, so
 * it shows as text and never runs as a formula (OWASP "CSV injection").
 */
import type { Conversation, Csat, Feedback, Message } from '../../client/index.js';

export interface ExportFile {
  filename: string;
  type: string;
  text: string;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula-safe, quoted, inner quotes doubled (RFC 4180). */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function toCsv(rows: readonly (readonly unknown[])[]): string {
  // CRLF line ends (RFC 4180), which every spreadsheet reads; newlines inside a quoted cell stay as they are.
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/**
 * `attachments`: the files' names, `; `-separated (a message of files alone would otherwise be an
 * empty row). `feedback_*`: the visitor's rating, reason and comment on an answer (`; `-separated
 * in the rare case of several raters). `csat_*`: the conversation's satisfaction rating (1–5) and its
 * comment, on every row like `conversation_id` (empty until rated).
 */
const COLUMNS = [
  'conversation_id', 'message_id', 'created_at', 'role', 'content', 'source', 'intent', 'confidence', 'attachments',
  'feedback_rating', 'feedback_reason', 'feedback_comment', 'csat_rating', 'csat_comment',
] as const;

export function transcriptCsv(conversation: Conversation, messages: readonly Message[], feedback: readonly Feedback[] = [], csat: Csat | null = null): ExportFile {
  const rows = messages.map((m) => {
    const rated = feedback.filter((f) => f.message_id === m.id);
    const each = (read: (f: Feedback) => string | null) => rated.map((f) => read(f) ?? '').join('; ');
    return [
      conversation.id, m.id, m.created_at, m.role, m.content, m.source ?? '', m.intent ?? '', m.confidence ?? '',
      (m.attachments ?? []).map((file) => file.filename).join('; '),
      each((f) => f.rating), each((f) => f.reason), each((f) => f.comment),
      csat?.rating ?? '', csat?.comment ?? '',
    ];
  });
  return { filename: `${conversation.id}.csv`, type: 'text/csv;charset=utf-8', text: toCsv([COLUMNS, ...rows]) };
}

export function transcriptJson(conversation: Conversation, messages: readonly Message[], feedback: readonly Feedback[] = [], csat: Csat | null = null): ExportFile {
  return {
    filename: `${conversation.id}.json`,
    type: 'application/json',
    text: JSON.stringify({ conversation, messages, feedback, csat }, null, 2),
  };
}

/** The file leaves as a download; `aicd-export` (composed) lets a host or a test see exactly what was saved. */
export function saveFile(from: HTMLElement, file: ExportFile): void {
  from.dispatchEvent(new CustomEvent<ExportFile>('aicd-export', { detail: file, bubbles: true, composed: true }));
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  link.click();
  // The click starts the download synchronously; the URL is revoked after it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
