/** Visitor context: what a widget tells about its visitor with a turn, and what the inbox shows of it. */
import type { HandoffStatus } from './handoff-types.js';

/** A trait of the visitor the site gave to `identify()`, besides the name and email. */
export type VisitorAttribute = string | number | boolean;

/**
 * `visitor` of a chat turn (`POST /v1/chat`, `POST /v1/bots/{bot_id}/messages`), stored on the
 * conversation; a later turn's replaces it (the first page is kept as `first_page_url`). The widget
 * sends it unless the site turns it off (`no-visitor-context`: then only the traits).
 */
export interface VisitorContext {
  /** The page the chat is on, `http:`/`https:`; the widget sends its origin and path only (a query or fragment often carries tokens). At most 2,000 characters. */
  page_url?: string;
  /** The page the visitor came from, the same way. */
  referrer?: string;
  /** The browser's language, BCP 47 (`de-CH`), at most 35 characters. */
  locale?: string;
  /** IANA time zone (`Europe/Zurich`), at most 64 characters. */
  time_zone?: string;
  /** 1–100 characters. */
  name?: string;
  /** A valid address, at most 254 characters. */
  email?: string;
  /** Up to 10 more traits: names 1–40 characters of `[A-Za-z0-9_.-]`, strings at most 200 characters. */
  attributes?: Record<string, VisitorAttribute>;
  /**
   * The name and email come from the site's own sign-in, not from the visitor. The token proxy sets
   * it (from `authorize()`'s `name`/`email`) and drops a browser's; only a key holder may send it.
   */
  verified?: boolean;
}

/** The visitor as a conversation keeps it. */
export interface StoredVisitor extends VisitorContext {
  /** The page of the conversation's first turn that told one. */
  first_page_url?: string;
  /** When a turn last told it. */
  updated_at: string;
}

/** Another conversation of the same visitor (same `user_id`, same account). */
export interface EarlierConversation {
  id: string;
  status: HandoffStatus;
  bot_id: string | null;
  created_at: string;
  updated_at: string;
}

/** `GET /dashboard/api/inbox/{conversation_id}/visitor`: who the visitor is and their other conversations. */
export interface InboxVisitor {
  conversation_id: string;
  user_id: string | null;
  /** Null when no turn told anything. */
  visitor: StoredVisitor | null;
  /** Newest first, at most 20; none for a conversation without a `user_id`. */
  earlier: EarlierConversation[];
}

/**
 * What a site tells the widget about its visitor (`identify()`): their id, name and email, and up to
 * 10 more traits (`plan: 'pro'`), within the bounds of `VisitorContext`.
 */
export interface VisitorTraits {
  /** The user id (as the `user-id` attribute): switches to that user's conversation. Omitted: the user stays. */
  id?: string;
  name?: string;
  email?: string;
  [trait: string]: VisitorAttribute | undefined;
}
