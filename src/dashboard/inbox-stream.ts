/**
 * One inbox events stream per signed-in dashboard, shared by whoever follows it: the operator bar
 * (presence, counts, the beep) and the pages that show what changes live (the Team page's presence).
 * Each open stream counts as an open dashboard on the service, so a second one would only cost a
 * connection. The stream opens with the first follower and ends with the last.
 */
import type { HandoffEvent } from '../client/index.js';
import type { DashboardApi } from './api.js';

export interface InboxFollower {
  /** Every event of the stream. */
  event?(event: HandoffEvent): void;
  /**
   * The stream is connected: on each (re)connection, and at once for a follower that joins a
   * connected stream. Unstored events (presence, typing) of a gap are not replayed: read again.
   */
  ready?(): void;
  /** The stream gave up (not on `unfollow`). */
  error?(error: unknown): void;
}

interface Shared {
  followers: Set<InboxFollower>;
  stop: AbortController;
  connected: boolean;
}

const streams = new WeakMap<DashboardApi, Shared>();

/** Follows the inbox stream of `api`'s session, opening it if nobody does yet; returns the unfollow. */
export function followInbox(api: DashboardApi, follower: InboxFollower): () => void {
  let shared = streams.get(api);
  if (!shared) {
    shared = { followers: new Set(), stop: new AbortController(), connected: false };
    streams.set(api, shared);
    void run(api, shared);
  }
  const mine = shared;
  mine.followers.add(follower);
  if (mine.connected) queueMicrotask(() => mine.followers.has(follower) && follower.ready?.());
  return () => {
    mine.followers.delete(follower);
    if (mine.followers.size > 0) return;
    mine.stop.abort();
    if (streams.get(api) === mine) streams.delete(api);
  };
}

async function run(api: DashboardApi, shared: Shared): Promise<void> {
  // A follower may unfollow from its own callback: go over a copy.
  const each = (call: (follower: InboxFollower) => void) => [...shared.followers].forEach(call);
  const { signal } = shared.stop;
  try {
    const onReady = () => {
      shared.connected = true;
      each((f) => f.ready?.());
    };
    for await (const event of api.inboxEvents({ signal, onReady })) each((f) => f.event?.(event));
  } catch (error) {
    if (!signal.aborted) each((f) => f.error?.(error));
  } finally {
    if (streams.get(api) === shared) streams.delete(api);
  }
}
