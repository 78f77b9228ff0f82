/**
 * The conversation's transcript as `ChatController` keeps it: the messages (replaced, never
 * mutated, on every change), which of them arrived live, the server conversation, and their copy in
 * the browser (`LocalConversation`). The controller adds delivery, restoring and the lifecycle.
 */
import { AiChatMessageReceivedEvent, type TranscriptMessage } from '../core/events.js';
import type { ChatConfig, ChatHost } from '../core/chat-config.js';
import { asRestored } from './transcript.js';
import { LocalConversation } from './local-conversation.js';

export class ChatTranscript {
  protected transcript: readonly TranscriptMessage[] = [];
  /**
   * Index of the first message that arrived live (sent, or a reply) since the transcript was last
   * replaced wholesale (restored, history, reset, set by the host). The view animates only those,
   * so a restored transcript of a thousand messages does not start a thousand animations.
   */
  liveFrom = 0;
  conversationId: string | null = null;
  protected startedOnce = false;
  /** The host set the transcript before the first start: it replaces the stored one. */
  protected presetByHost = false;
  protected readonly store = new LocalConversation(() => this.config().userId);

  constructor(
    protected readonly host: ChatHost,
    protected readonly config: () => ChatConfig,
  ) {}

  /** The transcript, oldest first. Replaced (never mutated) on every change. */
  get messages(): readonly TranscriptMessage[] {
    return this.transcript;
  }

  /**
   * Replaces the transcript, as a host restoring its own copy does: no events, nothing sent. A
   * message marked `sending` becomes `failed` (offered for retry, as after a reload). The server
   * conversation is let go (its history would replace this on reload); the next send starts one.
   * Stored like any other change; set before the first start, it replaces the stored conversation.
   */
  set messages(messages: readonly TranscriptMessage[]) {
    this.replace(messages.map(asRestored));
    this.conversationId = null;
    if (!this.startedOnce) this.presetByHost = true;
    this.store.interacted = true;
    this.persist();
    this.host.requestUpdate();
  }

  /** Every wholesale change goes through here: nothing in `messages` counts as live afterwards. */
  protected replace(messages: readonly TranscriptMessage[]): void {
    this.transcript = messages;
    this.liveFrom = messages.length;
  }

  /** The user id the conversation belongs to: the host's, else this instance's anonymous id. */
  get userId(): string {
    return this.store.userId;
  }

  /** The oldest user message still waiting to be delivered. */
  protected nextQueued(): TranscriptMessage | undefined {
    return this.messages.find((m) => m.role === 'user' && m.status === 'sending');
  }

  /**
   * A message that arrived from elsewhere: an operator's (human handoff). Added once (by its server
   * id), stored, and announced as a received one.
   */
  receive(message: TranscriptMessage): void {
    if (this.transcript.some((m) => m.serverId === message.serverId)) return;
    this.transcript = [...this.transcript, message];
    this.persist();
    this.host.requestUpdate();
    this.announce(message);
  }

  protected announce(message: TranscriptMessage): void {
    this.host.dispatchEvent(new AiChatMessageReceivedEvent({ message, conversationId: this.conversationId! }));
  }

  /** Changes one message (its feedback, from the view) and stores the transcript. */
  amend(id: string, change: Partial<TranscriptMessage>): void {
    this.patch(id, change);
    this.persist();
  }

  protected find(id: string): TranscriptMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  protected patch(id: string, change: Partial<TranscriptMessage>): void {
    this.transcript = this.transcript.map((m) => (m.id === id ? { ...m, ...change } : m));
    this.host.requestUpdate();
  }

  protected persist(): void {
    this.store.save(this.conversationId, this.transcript);
  }
}
