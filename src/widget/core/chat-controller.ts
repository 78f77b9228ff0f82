/**
 * `ChatController`: the headless half of `<ai-chat-widget>`. It owns the transcript and its
 * persistence (`ChatTranscript`, which it extends), the conversation lifecycle (restore, history,
 * reset, identity) and delivery (queue, retry, rate-limit wait, streaming). Its only links to the UI are `host.requestUpdate()` and the
 * events it dispatches on the host; it never touches the DOM. The round trip for one message is
 * `requestReply` (reply-request.ts); who the user is and what is stored, `LocalConversation`.
 *
 * Built like `@lit/task`: every async step remembers the `generation` it started in and drops its
 * result when a reset, identity switch or disconnect has moved on.
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import type { ChatStatus } from './chat-status.js';
import { isAbortError, isRateLimitError } from '../../client/index.js';
import type { Attachment, AttachmentSettings } from '../../client/types.js';
import { identityKey, type ChatConfig, type ChatHost } from './chat-config.js';
import { applyAppearance } from './widget-properties.js';
export type { ChatConfig, ChatHost } from './chat-config.js';
import { loadAddon } from '../addons/loader.js';
import { ClientProvider } from '../connection/client-provider.js';
import { Connectivity } from '../connection/connectivity.js';
import { OfflineError, randomId, toErrorDetail } from './error-detail.js';
import { AiChatErrorEvent, AiChatMessageSentEvent, AiChatReadyEvent, AiChatResetEvent, AiChatStopEvent, type TranscriptMessage } from './events.js';
import { asRestored, fetchHistory } from '../conversation/transcript.js';
import { RateLimitWait } from '../connection/rate-limit-wait.js';
import { requestReply } from '../reply/reply-request.js';
import { ChatTranscript } from '../conversation/chat-transcript.js';
import { FrameCoalescer } from '../reply/frame-coalescer.js';
import { HandoffLoader } from '../addons/handoff-loader.js';
import { AttachmentsLoader } from '../addons/attachments-loader.js';
import { withStoppedReply, type ReplyStream } from '../reply/stopped-reply.js';
import type { WidgetClient } from '../connection/widget-client.js';

export class ChatController extends ChatTranscript implements ReactiveController {
  /** Conversation starters (the bot's `quick_replies`), shown while the transcript is empty. */
  starters: readonly string[] = [];
  /** The bot's public face from the service (name, avatar, what visitors may attach), once loaded. */
  bot: { name?: string; avatar_url?: string | null; attachments?: AttachmentSettings } = {};
  /** True while a reply is being asked for (awaited or streaming in): it can be stopped. */
  replying = false;
  /** `stopReply()` aborted the reply in flight: it is kept as stopped, not dropped. */
  private stopping = false;
  /** True while the restored conversation's history loads. */
  private loading = false;
  /** True between sending a message and the first byte of its reply. */
  private awaitingReply = false;

  private generation = 0;
  private connected = false;
  private startedFor: string | null = null;
  private active: object | null = null;
  private abort: AbortController | null = null;
  private readonly wait = new RateLimitWait(this.host, () => void this.pump());
  private readonly connectivity = new Connectivity(this.host, () => this.resendAfterOutage());
  private readonly clients = new ClientProvider(() => {
    const { botId, userId } = this.config();
    return { ...(botId && { bot_id: botId }), ...(!userId && { user_id: this.userId }) };
  });
  private readonly settle = new Map<string, (reply: TranscriptMessage | null) => void>();
  /** The stream add-on's load, started once the widget streams. */
  private streamAddon?: Promise<unknown>;
  /** Human handoff, an add-on loaded for bots that hand off (its part of the view: `handoff.render`). */
  readonly handoff = new HandoffLoader(this.host, this);
  /** Attachments, an add-on loaded for bots that take files and for messages that carry some. */
  readonly files = new AttachmentsLoader(this.host, this);

  constructor(host: ChatHost, config: () => ChatConfig) {
    super(host, config);
    host.addController(this);
  }

  /** The bot the widget talks to (`bot-id`), or empty. */
  get botId(): string {
    return this.config().botId;
  }

  /** Epoch ms until which sending waits for the rate limit (0: not limited): the countdown's end. */
  get rateLimitedUntil(): number {
    return this.wait.until;
  }

  /** What the conversation is doing now (see `ChatStatus`). */
  get status(): ChatStatus {
    if (!this.connectivity.online) return 'offline';
    if (this.wait.until) return 'rate-limited';
    if (this.awaitingReply) return 'awaiting-reply';
    if (this.nextQueued()) return 'sending';
    return this.loading ? 'restoring' : 'idle';
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
   * Queues `text` as a user message, with `attachments` (files uploaded already), after a cancelable
   * `ai-chat-message-sent`. Returns `null` at once when there is neither text nor a file, or the
   * event was cancelled; otherwise a promise of the assistant's reply, or of `null` when the send
   * failed (the message then stays in the transcript, marked failed, with a Retry action that sends
   * the same files).
   */
  send(text: string, attachments?: Attachment[]): Promise<TranscriptMessage | null> | null {
    const content = text.trim();
    const files = attachments?.length ? { attachments } : {};
    if (!content && !files.attachments) return null;
    const id = randomId('m');
    const event = new AiChatMessageSentEvent({ id, text: content, conversationId: this.conversationId, ...files });
    this.host.dispatchEvent(event);
    if (event.defaultPrevented) return null;
    this.store.interacted = true;
    const message: TranscriptMessage = { id, role: 'user', content, time: new Date().toISOString(), status: 'sending', ...files };
    this.transcript = [...this.transcript, message];
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
    this.store.forget();
    this.stop();
    this.generation++;
    this.replace([]);
    this.conversationId = null;
    this.host.requestUpdate();
    this.host.dispatchEvent(new AiChatResetEvent());
  }

  /**
   * Stops the reply in flight: the request is aborted (the service stops generating and stores the
   * part it sent, marked stopped) and the part that arrived stays, marked `stopped`.
   */
  stopReply(): void {
    if (!this.replying) return;
    this.stopping = true;
    this.abort?.abort();
  }

  /** Re-reads the config; restarts when identity changed (base URL, bot, instance, storage, user). */
  sync(): void {
    const config = this.config();
    this.clients.update(config);
    // streaming is an add-on: at hand by the first send (which tries again if this load failed)
    if (config.stream && !this.streamAddon) this.streamAddon = loadAddon('stream').catch(() => undefined);
    const key = identityKey(config);
    if (key !== this.startedFor) {
      this.startedFor = key;
      this.start(config);
    }
  }

  private start(config: ChatConfig): void {
    if (this.startedOnce) this.stop(); // before the first start nothing runs, and early sends wait
    const generation = ++this.generation;
    this.store.open(config);
    // a transcript the host set before the first start takes the place of the stored one
    const stored = this.presetByHost ? null : this.store.load();
    // it is kept, as are messages `send()` queued before the first start (before connecting)
    const early = this.startedOnce ? [] : this.transcript;
    this.replace([...(stored?.messages ?? []).map(asRestored), ...early]);
    this.startedOnce = true;
    this.presetByHost = false;
    this.conversationId = stored?.conversationId ?? null;
    this.store.interacted = Boolean(stored) || early.length > 0;
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
        const rated = new Map(this.transcript.map((m) => [m.serverId, m.feedback]));
        const kept = history.map((m) => (rated.get(m.serverId) ? { ...m, feedback: rated.get(m.serverId) } : m));
        this.replace([...kept, ...this.transcript.filter((m) => m.status !== 'sent')]);
        this.persist();
      } catch (error) {
        if (generation !== this.generation || isAbortError(error)) return;
        const detail = toErrorDetail(error);
        if (detail.code === 'resource_not_found') {
          // the server no longer knows this conversation: start afresh rather than show a ghost
          this.store.clear();
          this.replace(this.transcript.filter((m) => m.status !== 'sent'));
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
    const ready = { conversationId: this.conversationId, userId: this.userId, messageCount: this.messages.length };
    this.host.dispatchEvent(new AiChatReadyEvent(ready));
    // With a key, the bot itself; through a token-url proxy or the service's own tokens (base-url
    // alone), its public face (name, quick replies). A host's own `token`/`getToken` may not reach
    // bots at all; there the host passes `starters`.
    const ownCredentials = !config.token && !config.getToken && (config.apiKey || config.tokenUrl || config.baseUrl);
    if (config.botId && ownCredentials) void this.loadBot(generation, config.botId, !this.messages.length);
    // a conversation restored from before may have a person in it (a new one learns from its replies)
    if (this.conversationId) void this.handoff.check(config.botId, this.conversationId);
    // a host whose credentials cannot read the bot says itself that visitors may attach files
    if (config.attachments) void this.files.load();
    void this.pump();
  }

  /**
   * The bot's name, avatar and appearance, and its conversation starters (`quick_replies`) for an
   * empty transcript. Best effort: failure just means none.
   */
  private async loadBot(generation: number, botId: string, withStarters: boolean): Promise<void> {
    try {
      const { data } = await (await this.getClient()).bots.get(botId, { maxRetries: 0 });
      if (generation !== this.generation) return;
      this.bot = data;
      applyAppearance(this.host as ReactiveElement, data.appearance);
      if (data.attachments?.enabled) void this.files.load();
      if (withStarters) this.starters = data.quick_replies ?? [];
      this.host.requestUpdate();
    } catch {
      // no starters then; sending still works
    }
  }

  /** Delivers queued messages one at a time, oldest first, honouring the rate-limit wait. */
  private async pump(): Promise<void> {
    if (this.active || !this.connected || this.loading) return;
    const next = this.nextQueued();
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
    this.awaitingReply = this.replying = true;
    this.stopping = false;
    this.host.requestUpdate();
    // the streamed reply so far (held in an object: it is set from callbacks), shown once a frame;
    // `text` is ahead of the frames, and `conversationId` is announced before it: a stop keeps both
    const stream: ReplyStream = { partial: null, text: '' };
    const frames = new FrameCoalescer<string>((content) => {
      if (generation !== this.generation) return;
      if (!stream.partial) {
        stream.partial = { id: randomId('m'), role: 'assistant', content: '', time: '', status: 'sending' };
        this.transcript = [...this.transcript, stream.partial];
        this.awaitingReply = false;
      }
      this.patch(stream.partial.id, { content });
    });
    try {
      if (!this.connectivity.online) throw new OfflineError(); // fail now; `online` sends it again
      const outcome = await requestReply({
        client: await this.getClient(),
        config: this.config(),
        signal,
        userId: this.userId,
        conversationId: this.conversationId,
        messages: this.transcript,
        message: this.find(message.id) ?? message,
        isCurrent: () => generation === this.generation,
        onText: (content) => frames.push((stream.text = content)),
        onConversation: (id) => (stream.conversationId = id),
      });
      if (!outcome) return;
      const { reply } = outcome;
      this.conversationId = outcome.conversationId;
      if (outcome.stored) this.patch(message.id, outcome.stored);
      this.patch(message.id, { status: 'sent' });
      const partialId = stream.partial?.id;
      const others = this.transcript.filter((m) => m.id !== partialId);
      const at = partialId ? this.transcript.findIndex((m) => m.id === partialId) : others.length;
      this.transcript = [...others.slice(0, at), ...(reply ? [reply] : []), ...others.slice(at)];
      this.persist();
      if (reply) this.announce(reply);
      this.handoff.seen(outcome.handoff);
      this.resolve(message.id, reply);
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.stopping) return this.keepStopped(message.id, stream);
      // a half-streamed reply is never kept: the retry (or the resend after an abort) brings it whole
      const partialId = stream.partial?.id;
      if (partialId) this.transcript = this.transcript.filter((m) => m.id !== partialId);
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
      frames.cancel(); // the reply (or nothing, on failure) has taken the streamed text's place
      if (generation === this.generation) {
        this.awaitingReply = this.replying = this.stopping = false;
        this.host.requestUpdate();
      }
    }
  }

  /** The user stopped the reply: it stays as far as it came, marked stopped (see `withStoppedReply`). */
  private keepStopped(messageId: string, stream: ReplyStream): void {
    const { transcript, reply } = withStoppedReply(this.transcript, messageId, stream);
    this.transcript = transcript;
    this.conversationId = stream.conversationId ?? this.conversationId;
    this.persist();
    this.host.requestUpdate();
    this.host.dispatchEvent(new AiChatStopEvent({ message: reply, conversationId: this.conversationId }));
    this.resolve(messageId, reply);
  }

  /** The client for the current credentials (also the answers' feedback, message-actions.ts). */
  getClient(): Promise<WidgetClient> {
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
    this.awaitingReply = this.replying = false;
    this.loading = false;
    this.wait.cancel();
    for (const resolve of this.settle.values()) resolve(null);
    this.settle.clear();
  }

  private resolve(id: string, reply: TranscriptMessage | null): void {
    this.settle.get(id)?.(reply);
    this.settle.delete(id);
  }

}
