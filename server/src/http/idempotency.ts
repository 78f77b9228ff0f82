/**
 * `Idempotency-Key` for POSTs: the first request with a key runs and its answer (status + body) is
 * stored; a repeat with the same key and the same request gets that answer again with
 * `Idempotent-Replayed: true` and never runs twice. Same key, other request: 409
 * `idempotency_key_reused`; the first still running: 409 `request_in_progress`. 5xx answers are not
 * kept, so a retry after a server fault really retries. Keys live 24 hours per account.
 *
 * Streamed answers (SSE) finish after the handler returns: the streaming code reports its final
 * envelope through `idempotencyRecorder(c)`, and a replay answers it as plain JSON.
 *
 * The stored answer is written after the handler's own writes, so a crash in between leaves a
 * `running` row and no answer. Handlers whose writes must never repeat (chat turns, bot messages)
 * therefore also key the write itself with `idempotencyTag(c)` and answer a retry from what they
 * stored; `releaseInterruptedKeys` frees the orphaned rows when this process owns the database.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { accountId, type AppContext, type AppEnv } from './context.ts';
import { ServiceError } from './errors.ts';

const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;
/** How long a key is remembered (also by keyed message writes, see `conversations/message-writer.ts`). */
export const IDEMPOTENCY_TTL_HOURS = 24;
const TTL_HOURS = IDEMPOTENCY_TTL_HOURS;
/** In SQL: the moment before which a key (and a message keyed by it) has expired. */
export const IDEMPOTENCY_EXPIRED_BEFORE = sql<Date>`now() - make_interval(hours => ${TTL_HOURS})`;
/** A `running` row older than this belongs to a request that died with its process. */
const STALE_RUNNING_MINUTES = 10;

export interface IdempotencyRecorder {
  /** Stores the final answer (not for 5xx: those release the key instead). Idempotent itself. */
  complete(status: number, body: unknown): Promise<void>;
  /** Releases the key without storing (the request never finished). */
  abandon(): Promise<void>;
}

/** A request's validated `Idempotency-Key` and its fingerprint, for handlers that key their own writes. */
export interface IdempotencyTag {
  key: string;
  /** sha256 of method + path + body, as stored in `idempotency_keys.request_hash`. */
  requestHash: string;
}

const recorders = new WeakMap<Request, IdempotencyRecorder>();
const tags = new WeakMap<Request, IdempotencyTag>();

/** The recorder of this request when it carries an `Idempotency-Key` (streaming handlers use it). */
export function idempotencyRecorder(c: AppContext): IdempotencyRecorder | undefined {
  return recorders.get(c.req.raw);
}

/** This request's key and fingerprint when it carries an `Idempotency-Key` and runs (not a replay). */
export function idempotencyTag(c: AppContext): IdempotencyTag | undefined {
  return tags.get(c.req.raw);
}

/**
 * Frees every `running` key. Only for a database this process owns alone (embedded PGlite): at
 * start no request can be running, so such rows belong to requests that died with the previous
 * process, and a retry should proceed at once instead of waiting out the stale-row age. With a
 * shared server (`DATABASE_URL`) another process may still be running them: the age rule applies.
 */
export async function releaseInterruptedKeys(db: Kysely<Database>): Promise<number> {
  const released = await db.deleteFrom('idempotency_keys').where('state', '=', 'running').executeTakeFirst();
  return Number(released.numDeletedRows);
}

function requestHash(c: AppContext, body: ArrayBuffer): string {
  return createHash('sha256').update(`${c.req.method}\n${c.req.path}\n`).update(new Uint8Array(body)).digest('hex');
}

export function idempotent(db: Kysely<Database>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (!KEY_SHAPE.test(key) || key.trim() === '') {
      throw new ServiceError('validation_failed', 'Idempotency-Key must be 1–255 printable ASCII characters.', {
        param: 'Idempotency-Key',
      });
    }
    const account = accountId(c);
    // The raw bytes (Hono caches them, so handlers read them again): a text decode would hide invalid UTF-8.
    const hash = requestHash(c, await c.req.arrayBuffer());
    const scope = db.selectFrom('idempotency_keys').where('account_id', '=', account).where('key', '=', key);

    // Expired keys and orphaned `running` rows free their key for this request.
    await db
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', account)
      .where('key', '=', key)
      .where((eb) =>
        eb.or([
          eb('created_at', '<', IDEMPOTENCY_EXPIRED_BEFORE),
          eb.and([eb('state', '=', 'running'), eb('created_at', '<', sql<Date>`now() - make_interval(mins => ${STALE_RUNNING_MINUTES})`)]),
        ]),
      )
      .execute();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({ account_id: account, key, request_hash: hash, state: 'running' })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();

    if (!inserted) {
      const existing = await scope.selectAll().executeTakeFirst();
      if (existing && existing.request_hash !== hash) {
        throw new ServiceError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', {
          param: 'Idempotency-Key',
        });
      }
      if (!existing || existing.state !== 'done' || existing.response_status === null) {
        throw new ServiceError('request_in_progress', 'A request with this Idempotency-Key is still running; retry shortly.', {
          param: 'Idempotency-Key',
          headers: { 'Retry-After': '1' },
        });
      }
      c.header('Idempotent-Replayed', 'true');
      c.header('Content-Type', 'application/json');
      return c.body(existing.response_body ?? '', existing.response_status as 200);
    }

    let settled = false;
    const recorder: IdempotencyRecorder = {
      async complete(status, body) {
        if (settled) return;
        settled = true;
        if (status >= 500) return release();
        await db
          .updateTable('idempotency_keys')
          .set({ state: 'done', response_status: status, response_body: typeof body === 'string' ? body : JSON.stringify(body) })
          .where('account_id', '=', account)
          .where('key', '=', key)
          .execute();
      },
      async abandon() {
        if (settled) return;
        settled = true;
        await release();
      },
    };
    const release = async () => {
      await db.deleteFrom('idempotency_keys').where('account_id', '=', account).where('key', '=', key).execute();
    };
    recorders.set(c.req.raw, recorder);
    tags.set(c.req.raw, { key, requestHash: hash });

    try {
      await next();
    } catch (error) {
      await recorder.abandon();
      throw error;
    }
    if (c.res.headers.get('content-type')?.startsWith('text/event-stream')) return; // the stream completes it
    await recorder.complete(c.res.status, await c.res.clone().text());
  };
}
