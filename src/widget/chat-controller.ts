/**
 * `ChatController`: the headless half of `<ai-chat-widget>`. It owns the transcript, the
 * conversation lifecycle (restore, history, reset, identity), delivery (queue, retry, rate-limit
 * wait, streaming) and persistence. Its only links to the UI are `host.requestUpdate()` and the
 * events it dispatches on the host; it never touches the DOM.
 *
 * Built like `@lit/task`: every async step remembers the `generation` it started in and drops its
 * result when a reset, identity switch or disconnect has moved on.
 */
import type { ReactiveController } from 'lit';
import {
  isAbortError,
  isRateLimitError,
  type AiChatClient,
  type ChatReply,
} from '../client/index.js';
import { identityKey, type ChatConfig, type ChatHost } from './chat-config.js';
export type { ChatConfig, ChatHost } from './chat-config.js';
import { ClientProvider, defaultBaseUrl } from './client-provider.js';
import { Connectivity } from './connectivity.js';
import { OfflineError, randomId, toErrorDetail } from './error-detail.js';
import {
  AiChatErrorEvent,
  AiChatMessageReceivedEvent,
  AiChatMessageSentEvent,
  AiChatReadyEvent,
  type TranscriptMessage,
} from './events.js';
import { chatMessages, fetchHistory, fromServer } from './transcript.js';
import { RateLimitWait } from './rate-limit-wait.js';
import { WidgetStorage } from './storage.js';

export class ChatController implements ReactiveController {
  /** The transcript, oldest first. Replaced (never mutated) on every change. */
  messages: readonly TranscriptMessage[] = [];
  conversationId: string | null = null;
  /** Conversation starters (the bot's `quick_replies`), shown while the transcript is empty. */
  starters: readonly string[] = [];
  /** True while the restored conversation's history loads. */
  loading = false;
  /** True between sending a message and the first byte of its reply. */
  awaitingReply = false;

  private generation = 0;
  private connected = false;
  private startedFor: string | null = null;
  private startedOnce = false;
  private storage: WidgetStorage | null = null;
  private anonymousId = '';
  /** Whether the user has interacted; nothing is written to storage before that. */
  private interacted = false;
  private active: object | null = null;
  private abort: AbortController | null = null;
  private readonly wait = new RateLimitWait(this.host, () => void this.pump());
  private readonly connectivity = new Connectivity(this.host, () => this.resendAfterOutage());
  private readonly clients = new ClientProvider(() => {
    const { botId, userId } = this.config();
    return { ...(botId && { bot_id: botId }), ...(!userId && { user_id: this.userId }) };
  });
  private readonly settle = new Map<string, (reply: TranscriptMessage | null) => void>();

  constructor(
    private readonly host: ChatHost,
    private readonly config: () => ChatConfig,
  ) {
    host.addController(this);
  }

  /** The user id the conversation belongs to: the host's, else this instance's anonymous id. */
  get userId(): string {
    return this.config().userId || this.anonymousId;
  }

  /** Epoch ms until which sending waits for the rate limit (0: not limited). */
  get rateLimitedUntil(): number {
    return this.wait.until;
  }

  /** True between the browser's `offline` event and its `online` event. */
  get offline(): boolean {
    return !this.connectivity.online;
  }

  /** True while a user message waits to be delivered. */
  get pending(): boolean {
    return this.messages.some((m) => m.role === 'user' && m.status === 'sending');
  }

  hostConnected(): void {
    this.connected = true;
    this.connectivity.connect();
    // Let property bindings of the same task land first. A widget merely moved in the DOM keeps
    // its transcript and resumes its queue.
    queueMicrotask(() => {
      if (!this.connected) return;
      this.sync();
      void this.pump();
    });
  }

  hostUpdate(): void {
    if (this.connected) this.sync();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.connectivity.disconnect();
    if (this.loading) this.startedFor = null; // history was cut short: restore again on reconnect
    this.stop();
  }

  /**
   * Queues `text` as a user message after a cancelable `ai-chat-message-sent`. Returns `null` at
   * once when the text is blank or the event was cancelled; otherwise a promise of the assistant's
   * reply, or of `null` when the send failed (the message then stays in the transcript, marked
   * failed, with a Retry action).
   */
  send(text: string): Promise<TranscriptMessage | null> | null {
    const content = text.trim();
    if (!content) return null;
    const id = randomId('m');
    const event = new AiChatMessageSentEvent({ id, text: content, conversationId: this.conversationId });
    this.host.dispatchEvent(event);
    if (event.defaultPrevented) return null;
    this.interacted = true;
    const message: TranscriptMessage = {
      id,
      role: 'user',
      content,
      time: new Date().toISOString(),
      status: 'sending',
    };
    this.messages = [...this.messages, message];
    const settled = new Promise<TranscriptMessage | null>((resolve) => this.settle.set(id, resolve));
    this.persist();
    this.host.requestUpdate();
    void this.pump();
    return settled;
  }

  /** Sends a failed message again, with the same `Idempotency-Key` so the server stores it once. */
  retry(id: string): void {
    const message = this.messages.find((m) => m.id === id);
    if (!message || message.status !== 'failed') return;
    this.patch(id, { status: 'sending', error: undefined });
    void this.pump();
  }

  /** Back online: each message that failed for want of a network (or an answer) goes out once more. */
  private resendAfterOutage(): void {
    for (const m of this.messages) {
      const code = m.error?.code;
      if (m.role === 'user' && m.status === 'failed' && (code === 'network_error' || code === 'timeout')) {
        this.patch(m.id, { status: 'sending', error: undefined });
      }
    }
    void this.pump();
  }

  /** Starts a new conversation and forgets the stored one (and the anonymous id with it). */
  reset(): void {
    const userId = this.userId;
    this.storage?.clearConversation(userId);
    if (!this.config().userId) {
      this.storage?.clearAnonymousId();
      this.anonymousId = randomId('anon');
    }
    this.stop();
    this.generation++;
    this.messages = [];
    this.conversationId = null;
    this.interacted = false;
    this.host.requestUpdate();
  }

  /** Re-reads the config; restarts when identity changed (base URL, bot, instance, storage, user). */
  sync(): void {
    const config = this.config();
    this.clients.update(config);
    const key = identityKey(config);
    if (key !== this.startedFor) {
      this.startedFor = key;
      this.start(config);
    }
  }

  private start(config: ChatConfig): void {
    if (this.startedOnce) this.stop(); // before the first start nothing runs, and early sends wait
    const generation = ++this.generation;
    const scope = `${config.baseUrl || defaultBaseUrl()}|${config.botId}|${config.instanceId}`;
    this.storage = new WidgetStorage(config.storage, scope);
    this.anonymousId = this.storage.loadAnonymousId() ?? randomId('anon');
    const stored = this.storage.loadConversation(this.userId);
    // A message that was on its way when the page went away is offered for retry, not resent.
    const restored = (stored?.messages ?? []).map((m): TranscriptMessage =>
      m.status === 'sending' ? { ...m, status: 'failed', error: { code: 'network_error', message: '' } } : m,
    );
    // `send()` called before the first start (before connecting) is kept, not wiped
    const early = this.startedOnce ? [] : this.messages;
    this.startedOnce = true;
    this.messages = [...restored, ...early];
    this.conversationId = stored?.conversationId ?? null;
    this.interacted = Boolean(stored) || early.length > 0;
    this.starters = [];
    this.host.requestUpdate();
    void this.restore(generation, config, Boolean(stored));
  }

  /** Loads server history (the source of truth) and the bot's starters, then announces ready. */
  private async restore(generation: number, config: ChatConfig, resumed: boolean): Promise<void> {
    await Promise.resolve(); // let the host render the locally stored transcript first
    if (resumed && (config.botId || this.conversationId)) {
      this.loading = true;
      this.host.requestUpdate();
      try {
        const query = this.conversationId
          ? { conversation_id: this.conversationId, user_id: this.userId }
          : { user_id: this.userId, bot_id: config.botId };
        const history = await fetchHistory(await this.getClient(), query, this.newAbort().signal);
        if (generation !== this.generation) return;
        // the server is the source of truth; only what it never received stays from local storage
        this.messages = [...history, ...this.messages.filter((m) => m.status !== 'sent')];
        this.persist();
      } catch (error) {
        if (generation !== this.generation || isAbortError(error)) return;
        const detail = toErrorDetail(error);
        if (detail.code === 'resource_not_found') {
          // the server no longer knows this conversation: start afresh rather than show a ghost
          this.storage?.clearConversation(this.userId);
          this.messages = this.messages.filter((m) => m.status !== 'sent');
          this.conversationId = null;
        } else {
          this.host.dispatchEvent(new AiChatErrorEvent(detail));
        }
      } finally {
        if (generation === this.generation) this.loading = false;
      }
    }
    if (generation !== this.generation) return;
    this.host.requestUpdate();
    this.host.dispatchEvent(
      new AiChatReadyEvent({
        conversationId: this.conversationId,
        userId: this.userId,
        messageCount: this.messages.length,
      }),
    );
    // Token proxies refuse to read bots; there the host passes `starters` itself.
    if (config.botId && config.apiKey && !config.token && !config.tokenUrl && !config.getToken && !this.messages.length) {
      void this.loadStarters(generation, config.botId);
    }
    void this.pump();
  }

  /** The bot's conversation starters (`quick_replies`). Best effort: failure just means none. */
  private async loadStarters(generation: number, botId: string): Promise<void> {
    try {
      const { data } = await (await this.getClient()).bots.get(botId, { maxRetries: 0 });
      if (generation !== this.generation) return;
      this.starters = data.quick_replies ?? [];
      this.host.requestUpdate();
    } catch {
      // no starters then; sending still works
    }
  }

  /** Delivers queued messages one at a time, oldest first, honouring the rate-limit wait. */
  private async pump(): Promise<void> {
    if (this.active || !this.connected || this.loading) return;
    const next = this.messages.find((m) => m.role === 'user' && m.status === 'sending');
    if (!next || this.wait.mustWait(this.clients.current?.rateLimit ?? null)) return;
    const run = {};
    this.active = run;
    try {
      await this.deliver(next);
    } finally {
      if (this.active === run) this.active = null;
    }
    void this.pump();
  }

  private async deliver(message: TranscriptMessage): Promise<void> {
    const generation = this.generation;
    const signal = this.newAbort().signal;
    const config = this.config();
    const options = {
      signal,
      idempotencyKey: message.id,
      maxRetryDelayMs: 0,
      ...(config.timeout > 0 && { timeoutMs: config.timeout }),
    };
    this.awaitingReply = true;
    this.host.requestUpdate();
    let partial: TranscriptMessage | null = null;
    try {
      if (!this.connectivity.online) throw new OfflineError(); // fail now; `online` sends it again
      const client = await this.getClient();
      let reply: TranscriptMessage;
      if (config.botId) {
        const { data } = await client.bots.sendMessage(
          config.botId,
          { message: message.content, user_id: this.userId },
          options,
        );
        if (generation !== this.generation) return;
        this.conversationId = data.conversation_id;
        this.patch(message.id, { serverId: data.user_message.id, time: data.user_message.created_at });
        reply = fromServer(data.message, data.suggestions);
      } else {
        const request = {
          messages: chatMessages(this.messages, this.find(message.id)!),
          conversation_id: this.conversationId ?? undefined,
          user_id: this.userId,
        };
        let final: ChatReply | null = null;
        if (config.stream) {
          let streamed = '';
          for await (const event of client.chat.stream(request, options)) {
            if (generation !== this.generation) return;
            // `meta` names the conversation too, but it is adopted only with the final message: a
            // retry after a broken stream must send the very body the Idempotency-Key was used with
            if (event.type === 'done') final = event.data.data;
            else if (event.type === 'meta') continue;
            else {
              streamed += event.data.text;
              if (!partial) {
                partial = { id: randomId('m'), role: 'assistant', content: '', time: '', status: 'sending' };
                this.messages = [...this.messages, partial];
                this.awaitingReply = false;
              }
              this.patch(partial.id, { content: streamed });
            }
          }
        } else {
          final = (await client.chat.send(request, options)).data;
        }
        if (generation !== this.generation) return;
        if (!final) throw new Error('The reply ended without its final message.');
        this.conversationId = final.conversation_id;
        reply = fromServer(final.message, final.suggestions);
        if (final.citations.length) reply.citations = final.citations.map(({ title, source }) => ({ title, source }));
      }
      this.patch(message.id, { status: 'sent' });
      const others = this.messages.filter((m) => m.id !== partial?.id);
      const at = partial ? this.messages.findIndex((m) => m.id === partial!.id) : others.length;
      this.messages = [...others.slice(0, at), reply, ...others.slice(at)];
      this.persist();
      this.host.dispatchEvent(
        new AiChatMessageReceivedEvent({ message: reply, conversationId: this.conversationId! }),
      );
      this.resolve(message.id, reply);
    } catch (error) {
      if (generation !== this.generation) return;
      // a half-streamed reply is never kept: the retry (or the resend after an abort) brings it whole
      if (partial) this.messages = this.messages.filter((m) => m.id !== partial!.id);
      if (isAbortError(error)) return;
      if (isRateLimitError(error)) {
        // at least a second, so a 429 without a usable hint never turns into a tight loop
        const until = Math.max(error.resetAt.getTime(), Date.now() + Math.max(error.retryAfterMs, 1000));
        this.wait.start(until, error.rateLimit ?? this.clients.current?.rateLimit ?? null);
        return; // the message stays queued and goes out when the wait ends
      }
      const detail = toErrorDetail(error);
      this.patch(message.id, { status: 'failed', error: { code: detail.code, message: detail.message } });
      this.persist();
      this.host.dispatchEvent(new AiChatErrorEvent(detail));
      this.resolve(message.id, null);
    } finally {
      if (generation === this.generation) {
        this.awaitingReply = false;
        this.host.requestUpdate();
      }
    }
  }

  private getClient(): Promise<AiChatClient> {
    return this.clients.get(this.config());
  }

  private newAbort(): AbortController {
    this.abort = new AbortController();
    return this.abort;
  }

  private stop(): void {
    this.abort?.abort();
    this.abort = null;
    this.active = null;
    this.awaitingReply = false;
    this.loading = false;
    this.wait.cancel();
    for (const resolve of this.settle.values()) resolve(null);
    this.settle.clear();
  }

  private find(id: string): TranscriptMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  private patch(id: string, change: Partial<TranscriptMessage>): void {
    this.messages = this.messages.map((m) => (m.id === id ? { ...m, ...change } : m));
    this.host.requestUpdate();
  }

  private resolve(id: string, reply: TranscriptMessage | null): void {
    this.settle.get(id)?.(reply);
    this.settle.delete(id);
  }

  private persist(): void {
    if (!this.interacted || !this.storage) return;
    if (!this.config().userId) this.storage.saveAnonymousId(this.anonymousId);
    this.storage.saveConversation(this.userId, {
      v: 1,
      conversationId: this.conversationId,
      messages: this.messages.filter((m) => m.status !== 'sending' || m.role === 'user'),
    });
  }
}
