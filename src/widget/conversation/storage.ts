/**
 * Per-instance persistence of the widget's conversation.
 *
 * Keys are namespaced by base URL, bot id and instance id (so two widgets on one page never share
 * state) and, for conversations, by user id (so a user never sees another user's transcript).
 * Storage can be unavailable (private mode, sandboxed iframes, quota): every access is guarded and
 * failures degrade to "not persisted", never to an exception.
 */
import type { TranscriptMessage } from '../core/events.js';

export type StorageMode = 'local' | 'session' | 'none';

/** What is kept for one user of one widget instance. */
export interface StoredConversation {
  v: 1;
  conversationId: string | null;
  messages: TranscriptMessage[];
}

const PREFIX = 'ai-chat-widget:v1:';
/** Newest messages kept locally; the server holds the full history. */
const MAX_STORED_MESSAGES = 200;

function backend(mode: StorageMode): Storage | null {
  try {
    if (mode === 'local') return globalThis.localStorage ?? null;
    if (mode === 'session') return globalThis.sessionStorage ?? null;
  } catch {
    // a SecurityError when storage is blocked
  }
  return null;
}

function read<T>(store: Storage | null, key: string): T | null {
  try {
    const raw = store?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(store: Storage | null, key: string, value: unknown): void {
  try {
    store?.setItem(key, JSON.stringify(value));
  } catch {
    // quota or blocked: the conversation still works, it just is not kept
  }
}

function remove(store: Storage | null, key: string): void {
  try {
    store?.removeItem(key);
  } catch {
    // ignore: nothing to clean up if storage is blocked
  }
}

/** Storage scoped to one widget instance (`scope` = base URL + bot id + instance id). */
export class WidgetStorage {
  private readonly store: Storage | null;

  constructor(
    mode: StorageMode,
    private readonly scope: string,
  ) {
    this.store = backend(mode);
  }

  /** The anonymous user id generated for this instance, if one was kept. */
  loadAnonymousId(): string | null {
    return read<{ id: string }>(this.store, `${PREFIX}user:${this.scope}`)?.id ?? null;
  }

  saveAnonymousId(id: string): void {
    write(this.store, `${PREFIX}user:${this.scope}`, { id });
  }

  clearAnonymousId(): void {
    remove(this.store, `${PREFIX}user:${this.scope}`);
  }

  loadConversation(userId: string): StoredConversation | null {
    const value = read<StoredConversation>(this.store, this.conversationKey(userId));
    return value?.v === 1 && Array.isArray(value.messages) ? value : null;
  }

  saveConversation(userId: string, conversation: StoredConversation): void {
    const messages = conversation.messages.slice(-MAX_STORED_MESSAGES);
    write(this.store, this.conversationKey(userId), { ...conversation, messages });
  }

  clearConversation(userId: string): void {
    remove(this.store, this.conversationKey(userId));
  }

  /** Whether this visitor dismissed the instance's teaser (kept for the visitor, whoever signs in). */
  loadTeaserDismissed(): boolean {
    return read(this.store, `${PREFIX}teaser:${this.scope}`) === 1;
  }

  saveTeaserDismissed(): void {
    write(this.store, `${PREFIX}teaser:${this.scope}`, 1);
  }

  private conversationKey(userId: string): string {
    return `${PREFIX}conv:${this.scope}|${userId}`;
  }
}
