/** Types of tenant-regex.mjs (plain JavaScript so the pattern worker can import it under plain node). */
import type { RE2JS } from 're2js';

export const MAX_PROGRAM_SIZE: number;
export const MAX_MATCHES: number;
export function compileTenantRegex(source: string): RE2JS;
export function tenantRegexProblem(source: string): string | null;

export interface TenantMatch {
  /** UTF-16 offsets into the message; `end` is exclusive. */
  start: number;
  end: number;
  text: string;
}
export function findTenantMatches(regex: RE2JS, text: string): TenantMatch[];
