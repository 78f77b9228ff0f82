/**
 * Fuzzing kit: the operation list read from the service's own OpenAPI document (so a new route is
 * fuzzed without touching the tests), schema-aware arbitraries that are *mostly* valid with a
 * chance of a wrong type at every level (so deep validation and the handlers behind it both run),
 * hostile strings, and the one invariant every answer must satisfy.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';

export type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON Schema is untyped JSON

export interface Operation {
  method: string;
  /** `/v1/bots/{bot_id}` */
  template: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  /** The request body's schema with `$ref`s resolved, when the operation takes one. */
  body?: Schema;
  label: string;
  /** Needs no API key (`security: []`): a platform's webhook, the widget's token route. */
  isPublic: boolean;
}

/** Strings that broke parsers, databases and renderers somewhere. */
export const HOSTILE_STRINGS = [
  '\uD800', // lone high surrogate
  'x\uDFFFy', // lone low surrogate
  'a\u0000b', // NUL (PostgreSQL text cannot hold it)
  '\u0000',
  '\u202Egnp.exe', // RTL override
  '\u200F\u200E\u2066x\u2069',
  '👩‍👩‍👧‍👦🏳️‍🌈', // ZWJ sequences
  'e\u0301\u0301\u0301\u0301', // combining marks
  'Z̵̡̢̛̗̘̙̜̝̞̟̠̊̋̌̍̎̏̐̑̒̓̔',
  '\uFEFF\uFFFE\uFFFF',
  "' or 1=1 --",
  "'; drop table messages; --",
  '"\\',
  '$1 $$ $$',
  '%s%n%x',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  '\r\n\r\nX-Injected: 1',
  ' ',
  '',
];

/** Path segments for ids: traversal, injection, encodings, extremes. Used raw in the URL. */
export const HOSTILE_IDS = [
  '..',
  '../',
  '..%2f..%2fetc',
  '%2e%2e',
  '%2e%2e%2f',
  '%252e%252e',
  "'%20or%201=1%20--",
  "bot_'or'1'='1",
  'bot_abcdefgh%00',
  '%00',
  '%',
  '%zz',
  '%ED%A0%80', // an encoded lone surrogate: not valid UTF-8
  '%C0%AE%C0%AE', // overlong dots
  'bot_' + 'A'.repeat(5000),
  'x'.repeat(20_000),
  'kb_%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80',
  'search',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '-1',
  '1e999',
];

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);

/** Any string: hostile ones, arbitrary code points (lone surrogates included), or plain words. */
export const anyString = fc.oneof(
  { weight: 2, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
);

/** Any JSON value (what a wrong type looks like). */
export const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, 2 ** 53 + 1, 0.5, [], {}, [[]], ''),
  anyString,
);

/** A body that is JSON text when the value can be (fc.anything includes functions, NaN, …). */
export const anyJsonText = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.anything({ maxDepth: 2 }).map((value) => {
    try {
      return JSON.stringify(value) ?? 'undefined';
    } catch {
      return String(value);
    }
  }),
  fc.constantFrom('', ' ', 'null', '[]', '{', '{"a":}', '\u0000', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{}'.repeat(1000)),
);

function resolve(schema: Schema, doc: Schema): Schema {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').at(-1)!;
    return resolve(doc.components.schemas[name], doc);
  }
  return schema;
}

/** The operations of the document, request bodies resolved. */
export function operationsOf(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const params = (op.parameters ?? []).map((p: Schema) => resolveParam(p, doc));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        template,
        pathParams: params.filter((p: Schema) => p.in === 'path').map((p: Schema) => p.name),
        query: params.filter((p: Schema) => p.in === 'query').map((p: Schema) => ({ name: p.name, schema: p.schema ?? {} })),
        body: bodySchema ? resolve(bodySchema, doc) : undefined,
        label: `${method.toUpperCase()} ${template}`,
        isPublic: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return ops;
}

function resolveParam(param: Schema, doc: Schema): Schema {
  if (typeof param.$ref !== 'string') return param;
  return doc.components.parameters[param.$ref.split('/').at(-1)!];
}

/**
 * A value for `schema`: valid most of the time, a wrong type with probability ~1/6 at each level.
 * Sizes are kept small: the point is shapes and edge values, not volume.
 */
export function arbitraryFor(schema: Schema, doc: Schema, depth = 0): fc.Arbitrary<unknown> {
  const right = validFor(resolve(schema, doc), doc, depth);
  return fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: anyJson });
}

function validFor(schema: Schema, doc: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 5) return anyJson;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.oneof(fc.constantFrom(...schema.enum), anyString);
  const variants = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants)) return fc.oneof(...variants.map((v: Schema) => arbitraryFor(v, doc, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
    case undefined: {
      if (!schema.properties) return type === 'object' ? fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }) : anyJson;
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, sub] of Object.entries<Schema>(schema.properties)) shape[name] = arbitraryFor(sub, doc, depth + 1);
      const known = fc.record(shape, { requiredKeys: [] });
      // now and then an unknown property, or one with a name that means something elsewhere
      return fc.tuple(known, fc.option(fc.constantFrom('__proto__', 'constructor', 'account_id', 'id', 'extra'), { freq: 6 }), anyJson).map(
        ([value, extra, extraValue]) => (extra ? { ...value, [extra]: extraValue } : value),
      );
    }
    case 'array':
      return fc.array(arbitraryFor(schema.items ?? {}, doc, depth + 1), { maxLength: 3 });
    case 'string':
      if (typeof schema.pattern === 'string' && !schema.pattern.includes('\\p')) {
        return fc.oneof({ weight: 3, arbitrary: fc.stringMatching(new RegExp(schema.pattern)) }, { weight: 1, arbitrary: anyString });
      }
      return fc.oneof(fc.string({ minLength: Math.min(schema.minLength ?? 0, 3), maxLength: 40 }), anyString);
    case 'integer':
      return fc.oneof(fc.integer({ min: (schema.minimum ?? -5) - 2, max: Math.min(schema.maximum ?? 100, 500) + 2 }), fc.constantFrom(-0, 2 ** 31, 2 ** 53 + 2, -(2 ** 63)));
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }), fc.constantFrom(1e308, -1e-308, 0.1));
    case 'boolean':
      return fc.boolean();
    default:
      return anyJson;
  }
}

/** Every error code the service documents (its OpenAPI `ErrorCode` enum). */
export function documentedErrorCodes(doc: Schema): Set<string> {
  return new Set<string>(resolve(doc.components.schemas.ErrorCode, doc).enum);
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A 503 that says the service lacks a setting the request needs (channel credentials without
 * `AI_CHAT_SECRETS_KEY`): documented, and the answer a valid request must get there, not a fault.
 */
const configurationMissing = (answer: Answer) => answer.status === 503 && /"code":"secrets_key_missing"/.test(answer.text);

/**
 * The invariant of every /v1 answer: no 5xx, rate-limit headers, and the envelope — a success
 * with `data` and `meta.request_id`, or an error whose code is documented and matches the status.
 */
export function assertWellFormed(answer: Answer, codes: Set<string>, what: string, method: string): void {
  const context = `${what} → ${answer.status} ${answer.text.slice(0, 300)}`;
  assert.ok(answer.status < 500 || configurationMissing(answer), `5xx: ${context}`);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.ok(answer.headers.get(name) !== null, `missing ${name}: ${context}`);
  }
  assert.match(answer.headers.get('x-request-id') ?? '', /^req_/, `missing X-Request-Id: ${context}`);
  if (what.startsWith('GET /v1/openapi.json') && answer.status === 200) return; // the document itself, by design
  if (method === 'HEAD') return assert.equal(answer.text, '', `HEAD with a body: ${context}`);
  if (answer.headers.get('content-type')?.startsWith('text/event-stream')) {
    // a turn ends with `done` or `error`; a live events stream (read up to its first frame) opens with `ready`
    assert.match(answer.text, /event: (done|error|ready)\n/, `stream without an end frame: ${context}`);
    return;
  }
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked field by field below
  try {
    body = JSON.parse(answer.text);
  } catch {
    assert.fail(`not JSON: ${context}`);
  }
  if (body?.success === true) {
    assert.ok(answer.status < 300, `success envelope with an error status: ${context}`);
    assert.ok('data' in body, `success without data: ${context}`);
    return;
  }
  assert.equal(body?.success, false, `neither envelope: ${context}`);
  assert.equal(typeof body.error?.code, 'string', `error without a code: ${context}`);
  assert.ok(codes.has(body.error.code), `undocumented code ${body.error.code}: ${context}`);
  assert.equal(typeof body.error.message, 'string', `error without a message: ${context}`);
  assert.doesNotMatch(body.error.message, /\n\s+at /, `stack trace in the message: ${context}`);
}
