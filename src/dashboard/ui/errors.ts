/**
 * Turning a failed client call into what the pages show: one sentence for the page, and the
 * service's `error.param` / `details` mapped to the form fields they name, so a validation error
 * appears next to the input that caused it instead of as a toast the user has to decode.
 */
import { isAiChatError, isApiError } from '../../client/index.js';
import { t } from '../i18n/i18n.js';

/** Field key → message; keys are dotted body paths (`training.intents.0.name`). */
export type FieldErrors = Record<string, string>;

/** A sentence for the page; the service's own message when it sent one (it is safe to show; the service speaks English). */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.serverMessage || t('error.status', { status: String(error.status) });
  if (isAiChatError(error)) return t('error.unreachable');
  return t('error.unknown');
}

/** `/training/intents/0/name` or `training.intents.0.name` → `training.intents.0.name`. */
function dotted(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.');
}

/**
 * Maps the error's `param` and every `details[].path` to the closest of `fields` (the longest field
 * key that is a prefix of the path), e.g. `training.intents.0.examples.3` → `training.intents.0.examples`.
 * Paths no field claims are returned in `rest`, so the page can still show them: nothing is dropped.
 */
export function fieldErrors(error: unknown, fields: readonly string[]): { fields: FieldErrors; rest: string[] } {
  const found: FieldErrors = {};
  const rest: string[] = [];
  if (!isApiError(error) || (error.code !== 'validation_failed' && error.code !== 'unknown_parameter')) {
    return { fields: found, rest: [errorMessage(error)] };
  }
  const problems = error.details?.length
    ? error.details.map((d) => ({ path: dotted(d.path), message: d.message }))
    : [{ path: dotted(error.param ?? ''), message: error.serverMessage }];
  // The param names the field ajv blamed even when a detail's path stops at its parent (a missing property).
  // "Invalid body: " says nothing next to the field itself.
  if (error.param) problems.unshift({ path: dotted(error.param), message: error.serverMessage.replace(/^Invalid (body|query): /, '') });
  for (const { path, message } of problems) {
    const field = closestField(path, fields);
    if (field === undefined) rest.push(message);
    else found[field] ??= message;
  }
  return { fields: found, rest: [...new Set(rest)] };
}

function closestField(path: string, fields: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const field of fields) {
    const claims = path === field || path.startsWith(`${field}.`);
    if (claims && (best === undefined || field.length > best.length)) best = field;
  }
  return best;
}
