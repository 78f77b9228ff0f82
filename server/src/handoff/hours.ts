/**
 * Opening hours: weekly ranges in the bot's IANA time zone. The local weekday and time come from
 * `Intl` (the platform's time zone database), so daylight-saving changes need no code here.
 */
import type { OpeningHours } from '../../../src/client/types.ts';
import { wallClock } from '../time-zones.ts';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** Minutes since midnight of `HH:MM`. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
}

/** Whether `now` falls in one of the weekly ranges, in the hours' time zone. */
export function isOpen(hours: OpeningHours, now: Date = new Date()): boolean {
  const wall = wallClock(now, hours.time_zone);
  const day = DAYS.find((d) => d === wall.weekday!.toLowerCase().slice(0, 3));
  const minute = Number(wall.hour) * 60 + Number(wall.minute);
  return hours.weekly.some((range) => range.day === day && minute >= minutesOf(range.from) && minute < minutesOf(range.to));
}
