/**
 * Opening hours: weekly ranges in the bot's IANA time zone. The local weekday and time come from
 * `Intl` (the platform's time zone database), so daylight-saving changes need no code here.
 */
import type { OpeningHours } from '../../../src/client/types.ts';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** True when `timeZone` is a zone this platform knows (checked at the edge before it is stored). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Minutes since midnight of `HH:MM`. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
}

/** Whether `now` falls in one of the weekly ranges, in the hours' time zone. */
export function isOpen(hours: OpeningHours, now: Date = new Date()): boolean {
  const parts = formatter(hours.time_zone).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = DAYS.find((d) => d === part('weekday').toLowerCase().slice(0, 3));
  const minute = Number(part('hour')) * 60 + Number(part('minute'));
  return hours.weekly.some((range) => range.day === day && minute >= minutesOf(range.from) && minute < minutesOf(range.to));
}
