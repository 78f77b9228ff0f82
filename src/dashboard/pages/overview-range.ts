/**
 * The overview's period: a first and last day (ISO dates, both included) in a time zone, the days
 * between them, and the day a report bucket (an instant) falls on in that zone. The reports are
 * asked with the same `tz`, so the service counts in the same days as the page shows.
 */
import { html } from 'lit';
import type { FieldErrors } from '../ui/errors.js';
import { field } from '../ui/field.js';
import { t } from '../i18n/i18n.js';
import { timeZoneOptions } from '../ui/format.js';

const DAY_MS = 86_400_000;
/** The overview asks one performance report per day: a longer period would be that many requests. */
export const MAX_DAYS = 31;

export interface OverviewRange {
  /** ISO dates, both included. */
  from: string;
  to: string;
  timeZone: string;
}

const dayOf = (date: Date, timeZone: string) => {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
};

/** The date `instant` (an ISO date-time, a bucket's start) falls on in `timeZone`. */
export const localDay = (instant: string, timeZone: string) => dayOf(new Date(instant), timeZone);

/** The last `count` days up to today in `timeZone`. */
export function lastDaysRange(count: number, timeZone: string, now = new Date()): OverviewRange {
  const to = dayOf(now, timeZone);
  return { from: new Date(Date.parse(to) - (count - 1) * DAY_MS).toISOString().slice(0, 10), to, timeZone };
}

/** Every date from `from` to `to`, both included, oldest first. */
export function daysOf(range: OverviewRange): string[] {
  const first = Date.parse(range.from);
  const count = Math.round((Date.parse(range.to) - first) / DAY_MS) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => new Date(first + i * DAY_MS).toISOString().slice(0, 10));
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a period, at its fields. */
export function rangeProblems(range: OverviewRange): FieldErrors {
  const problems: FieldErrors = {};
  if (!ISO_DATE.test(range.from)) problems.from = t('overview.firstDayMissing');
  if (!ISO_DATE.test(range.to)) problems.to = t('overview.lastDayMissing');
  if (problems.from || problems.to) return problems;
  const days = daysOf(range).length;
  if (days === 0) problems.to = t('overview.lastBeforeFirst');
  else if (days > MAX_DAYS) problems.to = t('overview.maxDays', { count: MAX_DAYS });
  return problems;
}

/** The period's form: first day, last day, time zone, and a button to show it. */
export function rangeForm(range: OverviewRange, errors: FieldErrors, set: (patch: Partial<OverviewRange>) => void, submit: (e: Event) => void) {
  return html`<form class="toolbar" novalidate aria-label=${t('overview.period')} @submit=${submit}>
    ${field({ name: 'from', label: t('overview.firstDay'), type: 'date', value: range.from, error: errors.from, onInput: (from) => set({ from }) })}
    ${field({ name: 'to', label: t('overview.lastDay'), type: 'date', value: range.to, error: errors.to, onInput: (to) => set({ to }) })}
    ${field({ name: 'tz', label: t('overview.timeZone'), value: range.timeZone, options: timeZoneOptions(range.timeZone), onInput: (timeZone) => set({ timeZone }) })}
    <button type="submit" class="primary">${t('overview.show')}</button>
  </form>`;
}
