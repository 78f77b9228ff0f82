/**
 * IANA time zones (`Europe/Berlin`), read through `Intl`: the platform's time zone database, so
 * daylight-saving changes need no code. Used by the opening hours of handoff and by the analytics
 * reports' days; checked at the edge before a zone is stored or used.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock parts of an instant in `timeZone` (weekday short, 24-hour); throws for an unknown zone. */
export function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** True when `timeZone` is a zone this platform knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    zoneFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `date` in `timeZone`: its parts by type (`weekday`, `year`, `hour`…). */
export function wallClock(date: Date, timeZone: string): Record<string, string> {
  return Object.fromEntries(zoneFormatter(timeZone).formatToParts(date).map((part) => [part.type, part.value]));
}

/** Milliseconds `timeZone` is ahead of UTC at `date` (Europe/Berlin in winter: 3,600,000). */
export function offsetAt(date: Date, timeZone: string): number {
  const w = wallClock(date, timeZone);
  const asUtc = Date.UTC(Number(w.year), Number(w.month) - 1, Number(w.day), Number(w.hour), Number(w.minute), Number(w.second));
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

/**
 * The instant the wall clock of `timeZone` shows `year-month-day hour:00` (month 1-based; days and
 * hours past their range roll over, as with `Date.UTC`). A wall time a daylight-saving change skips
 * gives an instant next to the gap.
 */
export function zonedTime(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour);
  // the offset at the first guess can differ from the one at the answer (a change in between)
  return new Date(wall - offsetAt(new Date(wall - offsetAt(new Date(wall), timeZone)), timeZone));
}
