/**
 * The conversation as this browser keeps it, for one widget instance: whose it is (the host's user
 * id, else an anonymous id kept here) and its copy kept across reloads. Nothing is written before
 * the user (or the host) has done something with the conversation. (The service's own store of
 * conversations is `ConversationStore` in server/src/chat/store.ts.)
 */
import type { ChatConfig } from '../core/chat-config.js';
import { defaultBaseUrl } from '../connection/client-provider.js';
import { randomId } from '../core/error-detail.js';
import type { TranscriptMessage } from '../core/events.js';
import { WidgetStorage, type StoredConversation } from './storage.js';

/** What a widget instance's stored state is kept under: its base URL, bot and instance. */
export const storageScope = (config: ChatConfig): string =>
  `${config.baseUrl || defaultBaseUrl()}|${config.botId}|${config.instanceId}`;

export class LocalConversation {
  /** Whether there is something worth keeping; nothing is written to storage before that. */
  interacted = false;
  private storage: WidgetStorage | null = null;
  private anonymousId = '';

  /** @param hostUserId the host's user id (`user-id`, `identify()`); empty: anonymous. */
  constructor(private readonly hostUserId: () => string) {}

  /** The user id the conversation belongs to: the host's, else this instance's anonymous id. */
  get userId(): string {
    return this.hostUserId() || this.anonymousId;
  }

  /** Switches to the storage of `config`'s scope (base URL, bot, instance) and its anonymous id. */
  open(config: ChatConfig): void {
    this.storage = new WidgetStorage(config.storage, storageScope(config));
    this.anonymousId = this.storage.loadAnonymousId() ?? randomId('anon');
  }

  /** The current user's stored conversation, if any. */
  load(): StoredConversation | null {
    return this.storage?.loadConversation(this.userId) ?? null;
  }

  /** Drops the current user's stored conversation. */
  clear(): void {
    this.storage?.clearConversation(this.userId);
  }

  /** Drops the stored conversation and, for an anonymous user, the anonymous id with it. */
  forget(): void {
    this.clear();
    if (!this.hostUserId()) {
      this.storage?.clearAnonymousId();
      this.anonymousId = randomId('anon');
    }
    this.interacted = false;
  }

  /** Keeps the conversation (an assistant reply still streaming is left out: it comes whole later). */
  save(conversationId: string | null, messages: readonly TranscriptMessage[]): void {
    if (!this.interacted || !this.storage) return;
    if (!this.hostUserId()) this.storage.saveAnonymousId(this.anonymousId);
    this.storage.saveConversation(this.userId, {
      v: 1,
      conversationId,
      messages: messages.filter((m) => m.status !== 'sending' || m.role === 'user'),
    });
  }
}
