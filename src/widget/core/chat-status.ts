/**
 * What the conversation is doing, as one value for the view (which combines no flags of its own).
 * When several hold, the first of these wins:
 * - `offline`: the browser says it is offline; a send fails at once and goes out again online;
 * - `rate-limited`: a message waits for the rate limit to let it go, until `rateLimitedUntil`;
 * - `awaiting-reply`: a message went out and no byte of its reply has come yet;
 * - `sending`: a message is on its way: queued (also behind the history) or its reply streaming in;
 * - `restoring`: the stored conversation's history is loading;
 * - `idle`: none of these; the user can send.
 */
export type ChatStatus = 'offline' | 'rate-limited' | 'awaiting-reply' | 'sending' | 'restoring' | 'idle';

/** A message is on its way (queued, held by the rate limit, or awaiting its reply): one at a time. */
export const isDelivering = (status: ChatStatus): boolean =>
  status === 'sending' || status === 'awaiting-reply' || status === 'rate-limited';
