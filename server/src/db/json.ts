/**
 * Values for jsonb columns. node-postgres turns a JS array into a PostgreSQL array literal, which a
 * jsonb column rejects, so every JSON value is sent as its JSON text.
 */
export function json(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** ISO-8601 UTC text of a timestamp column, as the wire contract wants. */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
