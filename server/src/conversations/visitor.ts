/**
 * Visitor context: what a widget tells about its visitor with a turn (`visitor` of `/v1/chat` and
 * `/v1/bots/{bot_id}/messages`), kept on the conversation (migration 032), and the inbox's view of it
 * with the visitor's other conversations. A turn that tells one replaces what an earlier turn told,
 * so the latest page wins and nothing stale (an unverified name beside an earlier `verified`) mixes
 * in; only the page the conversation started on is kept apart, as `first_page_url`.
 */
import { sql, type Kysely } from 'kysely';
import type { EarlierConversation, InboxVisitor, VisitorContext } from '../../../src/client/types.ts';
import { iso, json } from '../db/json.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { JsonSchema } from '../http/validate.ts';
import { VISITOR_EMAIL, VISITOR_NAME } from '../../../src/proxy/options.ts';

/** The visitor's other conversations the inbox lists. */
export const EARLIER_LIMIT = 20;

/** An absolute http(s) URL without spaces; the widget sends origin and path only. */
const webUrl: JsonSchema = { type: 'string', minLength: 8, maxLength: 2000, pattern: '^[hH][tT][tT][pP][sS]?://\\S+$' };

export const visitorContextSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Who the visitor is and where they are; stored on the conversation (a later turn\'s replaces it).',
  properties: {
    page_url: { ...webUrl, description: 'The page the chat is on (the widget sends origin and path only).' },
    referrer: { ...webUrl, description: 'The page the visitor came from, the same way.' },
    locale: { type: 'string', minLength: 2, maxLength: 35, pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$', description: 'BCP 47, e.g. `de-CH`.' },
    time_zone: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+/-]+$', description: 'IANA, e.g. `Europe/Zurich`.' },
    // no control characters (the dashboard shows it as text, never as markup); the same rules as the token proxy's `authorize()`
    name: { type: 'string', minLength: 1, maxLength: 100, pattern: VISITOR_NAME.source },
    email: { type: 'string', minLength: 3, maxLength: 254, pattern: VISITOR_EMAIL.source },
    attributes: {
      type: 'object',
      maxProperties: 10,
      propertyNames: { pattern: '^[A-Za-z0-9_.-]{1,40}$' },
      additionalProperties: { type: ['string', 'number', 'boolean'], maxLength: 200 },
      description: 'Up to 10 more traits: names 1–40 characters of `[A-Za-z0-9_.-]`, strings at most 200 characters.',
    },
    verified: { type: 'boolean', description: 'The name and email come from the site\'s sign-in (the token proxy sets it; a browser\'s is dropped).' },
  },
};

const earlierSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'status', 'bot_id', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    status: { enum: ['bot', 'waiting', 'with_person', 'closed'] },
    bot_id: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

/** `GET /dashboard/api/inbox/{conversation_id}/visitor`. */
export const inboxVisitorSchema: JsonSchema = {
  type: 'object',
  required: ['conversation_id', 'user_id', 'visitor', 'earlier'],
  properties: {
    conversation_id: { type: 'string' },
    user_id: { type: ['string', 'null'] },
    visitor: {
      oneOf: [
        { type: 'null' },
        { ...visitorContextSchema, properties: { ...(visitorContextSchema.properties as object), first_page_url: webUrl, updated_at: { type: 'string', format: 'date-time' } } },
      ],
    },
    earlier: { type: 'array', maxItems: EARLIER_LIMIT, items: earlierSchema },
  },
};

/**
 * Stores what a turn told about the visitor on its conversation (of `accountId`). `{}` tells nothing,
 * nor does an empty `attributes` (the widget of a site that gave `identify()` only an id sends one).
 */
export async function recordVisitor(db: Kysely<Database>, accountId: string, conversationId: string, visitor: VisitorContext): Promise<void> {
  const { attributes, ...rest } = visitor;
  const kept = attributes && Object.keys(attributes).length > 0 ? visitor : rest;
  if (Object.keys(kept).length === 0) return;
  const told = json({ ...kept, updated_at: new Date().toISOString() });
  const first = visitor.page_url ?? null;
  await db
    .updateTable('conversations')
    .set({
      visitor: sql<string>`jsonb_strip_nulls(jsonb_build_object('first_page_url', coalesce(visitor->>'first_page_url', ${first}::text))) || ${told}::jsonb`,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', conversationId)
    .execute();
}

/** The visitor of one of the account's conversations and their other conversations, newest first. */
export async function inboxVisitor(db: Kysely<Database>, accountId: string, conversationId: string): Promise<InboxVisitor> {
  const row = await db
    .selectFrom('conversations')
    .select(['id', 'user_id', 'visitor'])
    .where('account_id', '=', accountId)
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!row) throw notFound('conversation_id', 'conversation');
  const earlier: EarlierConversation[] = !row.user_id
    ? []
    : (
        await db
          .selectFrom('conversations')
          .select(['id', 'status', 'bot_id', 'created_at', 'updated_at'])
          .where('account_id', '=', accountId)
          .where('user_id', '=', row.user_id)
          .where('id', '!=', conversationId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(EARLIER_LIMIT)
          .execute()
      ).map((c) => ({ id: c.id, status: c.status, bot_id: c.bot_id, created_at: iso(c.created_at), updated_at: iso(c.updated_at) }));
  return { conversation_id: row.id, user_id: row.user_id, visitor: row.visitor, earlier };
}
