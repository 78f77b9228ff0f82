/**
 * Validation at the edge: bodies must be JSON objects that satisfy the route's JSON Schema
 * (2020-12, the dialect of OpenAPI 3.1, so the same schema objects document the API), query strings
 * are coerced then checked, path ids must have the id shape. Handlers only ever see valid input.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { AppContext } from './context.ts';
import { notFound, ServiceError } from './errors.ts';
import { ID_PATTERN } from '../ids.ts';
import { decodeUtf8, NOT_UTF8, parseJsonText } from '../../../src/proxy/json-body.ts';

export type JsonSchema = Record<string, unknown>;

const bodyAjv = new Ajv2020({ allErrors: true, strict: false });
const queryAjv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: true, useDefaults: true });
const compiled = new WeakMap<Ajv2020, WeakMap<JsonSchema, ValidateFunction>>();

function validator(ajv: Ajv2020, schema: JsonSchema): ValidateFunction {
  let cache = compiled.get(ajv);
  if (!cache) compiled.set(ajv, (cache = new WeakMap()));
  let fn = cache.get(schema);
  if (!fn) cache.set(schema, (fn = ajv.compile(schema)));
  return fn;
}

/** `/messages/0/content` → `messages.0.content`. */
function paramOf(error: ErrorObject): string {
  const base = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const extra =
    (error.params as { additionalProperty?: string; missingProperty?: string }).additionalProperty ??
    (error.params as { missingProperty?: string }).missingProperty;
  return [base, extra].filter(Boolean).join('.') || '(root)';
}

/** Ajv's words, except for a field a `false` schema forbids (e.g. one that excludes another). */
function wordsOf(error: ErrorObject): string {
  return error.keyword === 'false schema' ? 'is not allowed with the other fields sent' : (error.message ?? 'is invalid');
}

function toServiceError(errors: ErrorObject[], where: 'body' | 'query'): ServiceError {
  const details = errors.map((e) => ({
    path: e.instancePath + ((e.params as { additionalProperty?: string }).additionalProperty ? `/${(e.params as { additionalProperty: string }).additionalProperty}` : ''),
    message: `${paramOf(e)} ${wordsOf(e)}`,
  }));
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const param = paramOf(unknown);
    return new ServiceError('unknown_parameter', `Unknown ${where} parameter: ${param}.`, { param, details });
  }
  const first = errors[0]!;
  const param = paramOf(first);
  return new ServiceError('validation_failed', `Invalid ${where}: ${param} ${wordsOf(first)}.`, {
    param,
    details,
  });
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Makes every string of a parsed body storable: U+0000 is refused (PostgreSQL text cannot hold it),
 * and lone surrogates (e.g. an emoji cut in half by a client) become U+FFFD. A text column would do
 * that replacement on its own, but a `jsonb` column refuses the `\ud800` escape outright, so it is
 * done here, once, for every field. Returns the cleaned value.
 */
function cleanStrings(value: unknown, path: string): unknown {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) {
      throw new ServiceError('validation_failed', `${path || '(root)'} must not contain NUL characters.`, {
        param: path || '(root)',
      });
    }
    return value.replace(LONE_SURROGATE, '\uFFFD');
  }
  if (Array.isArray(value)) return value.map((v, i) => cleanStrings(v, path ? `${path}.${i}` : String(i)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty: a "__proto__" key stays a plain (unknown, refused) property, not a prototype
      Object.defineProperty(out, cleanStrings(k, path) as string, {
        value: cleanStrings(v, path ? `${path}.${k}` : k),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

export interface ReadJsonOptions {
  /** An empty body counts as `{}` (e.g. `POST /agents/{id}/train`). */
  optional?: boolean;
}

/**
 * Parses and validates the JSON body. 415 if not JSON; 400 `invalid_json` (also for bytes that are
 * not UTF-8, as the proxy answers), `json_too_deep`, `validation_failed` or `unknown_parameter`.
 * The depth is checked before parsing, so `cleanStrings` and the validator recurse a bounded depth.
 */
export async function readJson<T>(c: AppContext, schema: JsonSchema, options: ReadJsonOptions = {}): Promise<T> {
  const text = decodeUtf8(new Uint8Array(await c.req.arrayBuffer()));
  if (text === null) throw new ServiceError('invalid_json', NOT_UTF8);
  const contentType = c.req.header('content-type') ?? '';
  let value: unknown;
  if (text.trim() === '' && options.optional) {
    value = {};
  } else {
    if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType)) {
      throw new ServiceError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    }
    const parsed = parseJsonText(text);
    if (!parsed.ok) throw new ServiceError(parsed.code, parsed.message);
    value = parsed.value;
  }
  return checkBody<T>(value, schema);
}

/** Validates a parsed JSON body (a route that reads its body its own way, e.g. before the body limit). */
export function checkBody<T>(value: unknown, schema: JsonSchema): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ServiceError('validation_failed', 'The request body must be a JSON object.', { param: '(root)' });
  }
  const cleaned = cleanStrings(value, '');
  const validate = validator(bodyAjv, schema);
  if (!validate(cleaned)) throw toServiceError(validate.errors ?? [], 'body');
  return cleaned as T;
}

/** Coerces and validates the query string (one value per name; the last one wins). */
export function readQuery<T>(c: AppContext, schema: JsonSchema): T {
  const value = cleanStrings({ ...c.req.query() }, '') as Record<string, unknown>;
  const validate = validator(queryAjv, schema);
  if (!validate(value)) throw toServiceError(validate.errors ?? [], 'query');
  return value as T;
}

const idShape = new RegExp(ID_PATTERN);

/** A path id; one that cannot exist answers 404 like one that does not. */
export function pathId(c: AppContext, name: string, prefix: string, what: string): string {
  const id = c.req.param(name) ?? '';
  if (!idShape.test(id) || !id.startsWith(`${prefix}_`)) throw notFound(name, what);
  return id;
}

/** Reusable schema pieces. */
export const schemas = {
  id: (prefix: string): JsonSchema => ({ type: 'string', pattern: `^${prefix}_[0-9A-Za-z]{8,40}$` }),
  userId: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:@-]+$' } as JsonSchema,
  language: { type: 'string', enum: ['en', 'de', 'fr', 'es'] } as JsonSchema,
  limit: (max: number, fallback: number): JsonSchema => ({ type: 'integer', minimum: 1, maximum: max, default: fallback }),
  cursor: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' } as JsonSchema,
} as const;
