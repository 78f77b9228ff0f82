/** Small text helpers shared by the pages. */
import type { CsatRating, FeedbackRating, FeedbackReason } from '../../client/index.js';
import type { PresenceStatus } from '../types.js';

/** "a, b ,, c" or one per line → ['a', 'b', 'c']: empty items are dropped, the rest trimmed. */
export function splitList(text: string, separator: RegExp = /[,\n]/): string[] {
  return text
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** One item per line, for textareas. */
export function splitLines(text: string): string[] {
  return splitList(text, /\n/);
}

/** An operator's presence in words. */
export const PRESENCE_LABELS: Readonly<Record<PresenceStatus, string>> = { online: 'Online', away: 'Away', offline: 'Offline' };

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** The browser's IANA time zone (`UTC` if it names none). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA time zone the browser knows, for a select (`current` first if the browser does not know it). */
export function timeZoneOptions(current: string): (readonly [string, string])[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return (zones.includes(current) ? zones : [current, ...zones]).map((zone) => [zone, zone.replaceAll('_', ' ')] as const);
}

/** The languages the service's NLU supports (ISO 639-1), for the language selects. */
export const LANGUAGES = [['en', 'English'], ['de', 'German'], ['fr', 'French'], ['es', 'Spanish']] as const;

/** "512 B", "12 KB", "1.5 MB": a file's size as people read it (binary units, as the limits are set). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} ${unit}`;
}

export const REASON_LABELS: Record<FeedbackReason, string> = {
  incorrect: 'Incorrect',
  not_helpful: 'Not helpful',
  incomplete: 'Incomplete',
  other: 'Other',
};

/** A satisfaction rating in words, 1 to 5 (the widget's survey names them the same). */
export const CSAT_LABELS: Record<CsatRating, string> = { 1: 'Very bad', 2: 'Bad', 3: 'Okay', 4: 'Good', 5: 'Very good' };

/** "★★★★☆ 4/5 · Good": a visitor's satisfaction rating, as the pages show it. */
export function csatSummary(rating: CsatRating): string {
  return `${'★'.repeat(rating)}${'☆'.repeat(5 - rating)} ${rating}/5 · ${CSAT_LABELS[rating]}`;
}

/** "45 s", "3 min", "2 h 5 min": a response time, rounded as people read it; "—" for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "👎 Thumbs down · Incorrect": a visitor's rating and reason, as the pages show them. */
export function feedbackSummary(f: { rating: FeedbackRating; reason: FeedbackReason | null }): string {
  const thumb = f.rating === 'up' ? '👍 Thumbs up' : '👎 Thumbs down';
  return f.reason ? `${thumb} · ${REASON_LABELS[f.reason]}` : thumb;
}

/** How long a conversation has waited: "just now", "3 min", "1 h 5 min". */
export function waitLabel(since: string | null, now = Date.now()): string {
  if (!since) return '';
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  if (minutes < 1) return 'just now';
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
