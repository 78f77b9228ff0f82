/** Small text helpers shared by the pages, in the dashboard's language (i18n/i18n.ts). */
import type { CsatRating, FeedbackRating, FeedbackReason } from '../../client/index.js';
import { labels, locale, t } from '../i18n/i18n.js';
import type { PresenceStatus } from '../types.js';

/** A day of the week by name in the dashboard's language: 0 is Monday. */
export function weekdayName(fromMonday: number): string {
  // 2024-01-01 was a Monday
  return new Intl.DateTimeFormat(locale(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + fromMonday));
}

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
export const PRESENCE_LABELS = labels<PresenceStatus>({ online: 'presence.online', away: 'presence.away', offline: 'presence.offline' });

const dateTimes = new Map<string, Intl.DateTimeFormat>();

/** A date and time as people of the dashboard's language write it ("27 Nov 2026, 16:05" in en-GB terms). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return t('format.none');
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateTimes.get(locale());
  if (!format) dateTimes.set(locale(), (format = new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' })));
  return format.format(date);
}

/** "3 minutes ago", "in 2 days": `iso` relative to `now`, in the dashboard's language. */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [['day', 86_400], ['hour', 3_600], ['minute', 60]];
  const [unit, size] = units.find(([, size]) => Math.abs(seconds) >= size) ?? ['second', 1];
  return new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}

/** The browser's IANA time zone (`UTC` if it names none). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA time zone the browser knows, for a select (`current` first if the browser does not know it). */
export function timeZoneOptions(current: string): (readonly [string, string])[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return (zones.includes(current) ? zones : [current, ...zones]).map((zone) => [zone, zone.replaceAll('_', ' ')] as const);
}

/** The languages the service's NLU supports (ISO 639-1), for the language selects. */
export const NLU_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;

/** `NLU_LANGUAGES` as select options, named in the dashboard's language. */
export function languageOptions(): [string, string][] {
  return NLU_LANGUAGES.map((code) => [code, t(`language.${code}`)]);
}

/** "512 B", "12 KB", "1.5 MB": a file's size as people read it (binary units, as the limits are set). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} ${unit}`;
}

export const REASON_LABELS = labels<FeedbackReason>({ incorrect: 'reason.incorrect', not_helpful: 'reason.not_helpful', incomplete: 'reason.incomplete', other: 'reason.other' });

/** A satisfaction rating in words, 1 to 5 (the widget's survey names them the same). */
export const CSAT_LABELS = labels<CsatRating>({ 1: 'csat.1', 2: 'csat.2', 3: 'csat.3', 4: 'csat.4', 5: 'csat.5' });

/** "★★★★☆ 4/5 · Good": a visitor's satisfaction rating, as the pages show it. */
export function csatSummary(rating: CsatRating): string {
  return `${'★'.repeat(rating)}${'☆'.repeat(5 - rating)} ${rating}/5 · ${CSAT_LABELS[rating]}`;
}

/** "45 s", "3 min", "2 h 5 min": a response time, rounded as people read it; "—" for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return t('format.none');
  if (seconds < 90) return t('duration.seconds', { n: Math.round(seconds) });
  return minutesLabel(Math.round(seconds / 60), 90);
}

/** "3 min" below `hoursFrom` minutes, "2 h 5 min" from there. */
function minutesLabel(minutes: number, hoursFrom: number): string {
  return minutes < hoursFrom ? t('duration.minutes', { n: minutes }) : t('duration.hours', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

/** "👎 Thumbs down · Incorrect": a visitor's rating and reason, as the pages show them. */
export function feedbackSummary(f: { rating: FeedbackRating; reason: FeedbackReason | null }): string {
  const thumb = t(f.rating === 'up' ? 'feedback.up' : 'feedback.down');
  return f.reason ? `${thumb} · ${REASON_LABELS[f.reason]}` : thumb;
}

/** How long a conversation has waited: "just now", "3 min", "1 h 5 min". */
export function waitLabel(since: string | null, now = Date.now()): string {
  if (!since) return '';
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  if (minutes < 1) return t('wait.justNow');
  return minutesLabel(minutes, 60);
}
