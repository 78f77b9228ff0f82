/**
 * Human handoff in the widget (docs/handoff.md): "Talk to a person", the banner that says who answers
 * ("Waiting for a person…", "Anna joined"), operator messages and typing as they happen, the visitor's
 * typing for the operator, and the email form while nobody can answer. An add-on (catalog.ts) that
 * `HandoffLoader` loads only for a bot whose handoff is on, or once a reply says the bot handed off.
 *
 * It follows the conversation's events stream only while a person is involved (`waiting`,
 * `with_person`). Nothing falls between the history the widget loaded and the stream: once the
 * stream is first open (`onReady`), the state and the history are read again, and operator messages
 * join the transcript once each (`ChatController.receive` knows them by their server id); after
 * that, the client's `events()` resumes every reconnection from the last event id.
 */
import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { HandoffResource, type HandoffScope } from '../../client/resources/handoff.js';
import type { HandoffAvailability, HandoffState, Message } from '../../client/types.js';
import { renderAvatar, safeAvatar } from '../chrome/chat-chrome.js';
import type { ChatHost } from '../core/chat-config.js';
import { AiChatHandoffEvent, type TranscriptMessage } from '../core/events.js';
import styles from '../styles/handoff.styles.js';
import type { HandoffStrings, WidgetStrings } from '../locales/strings.js';
import { fetchHistory, fromServer } from '../conversation/transcript.js';
import type { WidgetClient } from '../connection/widget-client.js';
import type { CsatSurvey } from './csat-survey.js';
import { adoptStyles } from './adopt-styles.js';

/** English; the other languages' tables carry their own (strings.ts). */
export const handoffStrings: HandoffStrings = {
  talkToPerson: 'Talk to a person',
  handoffWaiting: 'Waiting for a person…',
  handoffJoined: '{name} joined',
  handoffTyping: '{name} is typing…',
  handoffBack: 'You are back with the assistant.',
  handoffClosed: 'The conversation has ended. Send a message to start a new one.',
  handoffOutsideHours: 'Nobody can answer now: we are outside our opening hours.',
  handoffNobodyOnline: 'Nobody can answer right now.',
  leaveMessage: 'Leave a message',
  offlineEmail: 'Your email',
  offlineMessage: 'Your message',
  offlineSent: 'Thank you. We will reply to {email}.',
};

/** What the add-on needs of the widget's `ChatController`. */
export interface HandoffChat {
  /** Set to null here when the operator closed it and only a new conversation can go on (see `apply`). */
  conversationId: string | null;
  readonly botId: string;
  readonly userId: string;
  getClient(): Promise<WidgetClient>;
  /** Adds a message that arrived from elsewhere (an operator's), once. */
  receive(message: TranscriptMessage): void;
}

/** The widget: a controller host that dispatches its events, with the shadow root it renders into. */
export type HandoffHost = ChatHost & { readonly renderRoot?: HTMLElement | DocumentFragment };

/** The bot's side (`GET /bots/{id}/handoff`): whether a person may be asked for, and can be now. */
export type HandoffOffer = HandoffAvailability & { bot_id: string; enabled: boolean };

/** How long "typing…" shows after the operator's last keystroke event, and how often the visitor's is sent. */
const TYPING_MS = 4000;
const TYPING_EVERY_MS = 3000;

const involved = (state: HandoffState | null) => state?.status === 'waiting' || state?.status === 'with_person';

export class Handoff implements ReactiveController {
  /** The conversation's handoff state, once known (null: a new conversation, or not read yet). */
  state: HandoffState | null = null;
  private offer: HandoffOffer | null = null;
  private conversationId: string | null = null;
  /** What the last `ai-chat-handoff` said (status and operator), so that no change is announced twice. */
  private announced = '';
  private following?: AbortController;
  private typing?: { name: string; until: number };
  private typingSentAt = 0;
  /** The operator gave the conversation back to the bot: the banner says so. */
  private returned = false;
  private asking = false;
  /** The email form: open, being sent, failed, or sent (to `sentTo`). */
  private form: { open?: boolean; sending?: boolean; failed?: boolean; sentTo?: string } = {};
  /** The satisfaction survey, once an operator ended their part of this conversation. */
  private survey?: CsatSurvey;

  constructor(
    private readonly host: HandoffHost,
    private readonly chat: HandoffChat,
    /** The widget's add-on loader (`loadAddon`): the survey is an add-on of its own, and no add-on imports loader.ts. */
    private readonly load?: (name: 'csat') => Promise<typeof import('./csat-survey.js')>,
  ) {
    host.addController(this);
    adoptStyles(host.renderRoot, styles);
    host.addEventListener('input', this.onInput);
    // availability changes (an operator comes online): read again whenever the visitor opens the chat
    host.addEventListener('ai-chat-open', () => void this.refresh());
    host.addEventListener('ai-chat-reset', () => this.switchTo(null));
  }

  /** The bot's settings; a bot without handoff (null) shows nothing. */
  configure(offer: HandoffOffer | null): void {
    this.offer = offer;
    this.host.requestUpdate();
  }

  /**
   * Reads the bot's settings again (without `bot-id`, the conversation's state, which says whether
   * someone can answer). Best effort: on failure the last known ones stand.
   */
  private async refresh(): Promise<void> {
    const { offer, conversationId } = this;
    if (!offer) return;
    try {
      const api = await this.api();
      if (offer.bot_id) return this.configure((await api.settings(offer.bot_id, { maxRetries: 0 })).data);
      const { data } = await api.state(conversationId!, this.scope(), { maxRetries: 0 });
      this.configure({ ...offer, available: data.available, unavailable_reason: data.unavailable_reason });
    } catch {
      // the service is away for a moment
    }
  }

  hostUpdate(): void {
    const id = this.chat.conversationId;
    // a closed conversation let go (`apply`) keeps its banner until the next one starts
    if (id !== this.conversationId && (id || this.state?.status != 'closed')) this.switchTo(id);
  }

  hostDisconnected(): void {
    this.switchTo(null); // a reconnect reads the state afresh
  }

  /** A state from a reply (`handoff`), the stream, or an answer of the service. */
  apply(state: HandoffState): void {
    if (state.conversation_id !== this.conversationId) this.switchTo(state.conversation_id, false);
    this.returned = state.status === 'bot' && involved(this.state);
    // an operator ended their part (closed, or back to the bot) while the visitor was here: ask for a rating
    if (this.state?.status === 'with_person' && !involved(state)) void this.askRating(state.conversation_id);
    this.state = state;
    // a reply's state says the bot hands off (its settings were not read: the reply came first)
    this.offer = { bot_id: this.chat.botId, enabled: true, ...this.offer, available: state.available, unavailable_reason: state.unavailable_reason };
    if (state.status !== 'with_person') this.typing = undefined;
    this.announce(state);
    if (involved(state)) this.follow();
    else this.stop();
    // The chat endpoint (no `bot-id`) refuses a closed conversation by id (409): the next message
    // starts a new one instead, as the bot endpoint does by itself.
    if (state.status == 'closed' && !this.chat.botId) this.chat.conversationId = null;
    this.host.requestUpdate();
  }

  private announce(state: HandoffState, cancelable = false): boolean {
    const said = `${state.status} ${state.operator?.id}`;
    if (said === this.announced || (!this.announced && state.status === 'bot')) return true;
    const before = this.announced;
    this.announced = said;
    const go = this.host.dispatchEvent(new AiChatHandoffEvent(state, cancelable));
    if (!go) this.announced = before; // the host took over: nothing changed here
    return go;
  }

  /** Another conversation (the first reply, a reset, another user, a closed one left): start over. */
  private switchTo(id: string | null, read = true): void {
    this.stop();
    this.conversationId = id;
    this.state = null;
    this.announced = '';
    this.returned = false;
    this.form = {};
    this.typing = undefined;
    this.survey = undefined;
    if (id && read) void this.read(id);
  }

  /** Loads the survey (an add-on) and shows it if the bot's settings ask for a rating and none was given. */
  private async askRating(id: string): Promise<void> {
    const module = await this.load?.('csat').catch(() => undefined);
    if (!module || id !== this.conversationId || this.survey) return;
    this.survey = new module.CsatSurvey(this.host, this.chat, id, this.scope());
    await this.survey.start();
  }

  private async read(id: string): Promise<void> {
    try {
      const { data } = await (await this.api()).state(id, this.scope());
      if (id === this.conversationId) this.apply(data);
    } catch {
      // the conversation is unknown to the service (or it cannot be reached): nothing to show
    }
  }

  /**
   * Follows the events stream; `opened` runs once it is first open: by default, reading the state
   * and the history again, which closes any gap between what was read before and the stream.
   */
  private follow(opened?: () => Promise<void>): void {
    const id = this.conversationId;
    if (this.following || !id) return;
    const following = (this.following = new AbortController());
    let first = true;
    const onReady = () => {
      if (first) void (opened ?? (() => this.catchUp(id)))();
      first = false;
    };
    void (async () => {
      try {
        const events = (await this.api()).events(id, { ...this.scope(), signal: following.signal, onReady });
        for await (const event of events) {
          if (event.type === 'status') this.apply(event.data);
          else if (event.type === 'message') this.received(event.data);
          else if (event.type === 'typing' && event.data.from === 'operator') this.showTyping(event.data.operator?.name ?? '');
        }
      } catch {
        // 404 or 403: the conversation is gone or not this visitor's; nothing more will come
      }
      if (this.following === following) this.following = undefined;
    })();
  }

  private async catchUp(id: string): Promise<void> {
    try {
      const client = await this.chat.getClient();
      const signal = this.following?.signal ?? AbortSignal.abort();
      const [history, { data }] = await Promise.all([
        fetchHistory(client, { conversation_id: id, user_id: this.chat.userId }, signal),
        (await this.api()).state(id, this.scope(), { signal }),
      ]);
      for (const message of history) if (message.role === 'operator') this.chat.receive(message);
      if (id === this.conversationId) this.apply(data);
    } catch {
      // aborted, or the service is away: the stream goes on, and a reload reads the history
    }
  }

  private received(message: Message): void {
    // the visitor's own messages are in the transcript already (sent from here)
    if (message.role !== 'operator') return;
    this.typing = undefined;
    this.chat.receive(fromServer(message));
  }

  private showTyping(name: string): void {
    this.typing = { name, until: Date.now() + TYPING_MS };
    this.host.requestUpdate();
    setTimeout(() => this.host.requestUpdate(), TYPING_MS);
  }

  /** The visitor types in the composer while a person is involved: the operator sees it (throttled). */
  private readonly onInput = (event: Event): void => {
    const id = this.conversationId;
    const input = event.composedPath()[0] as Element;
    if (!id || !involved(this.state) || !input.part?.contains('input') || Date.now() - this.typingSentAt < TYPING_EVERY_MS) return;
    this.typingSentAt = Date.now();
    void this.api().then((api) => api.typing(id, this.scope())).catch(() => {});
  };

  /**
   * "Talk to a person": `ai-chat-handoff` first (cancelable: a host with a helpdesk of its own takes
   * over there); then the stream opens, and the service is asked once it is open, so nothing the
   * operator does after the ask is missed.
   */
  private ask(): void {
    const id = this.conversationId;
    if (!id || this.asking || !this.state) return;
    const asked: HandoffState = { ...this.state, status: 'waiting', waiting_since: new Date().toISOString() };
    if (!this.announce(asked, true)) return void this.host.requestUpdate();
    this.asking = true;
    this.form = {};
    this.host.requestUpdate();
    this.follow(() => this.request(id));
    this.focusInput();
  }

  private async request(id: string): Promise<void> {
    try {
      this.apply((await (await this.api()).request(id, this.scope())).data);
    } catch {
      // nobody can answer after all (409 `handoff_unavailable`), or asking failed: say why, offer the form
      this.stop();
      await this.refresh();
      if (this.offer) this.offer = { ...this.offer, available: false };
      if (this.state) this.announce(this.state);
      this.form = { open: true };
    } finally {
      this.asking = false;
      this.host.requestUpdate();
    }
  }

  private async leaveMessage(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const id = this.conversationId;
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const email = String(data.get('email') ?? '').trim();
    const message = String(data.get('message') ?? '').trim();
    if (!id || !email || !message) return;
    this.form = { open: true, sending: true };
    this.host.requestUpdate();
    try {
      await (await this.api()).leaveOfflineMessage(id, { email, message, ...this.scope() });
      this.form = { sentTo: email };
    } catch {
      this.form = { open: true, failed: true };
    }
    this.host.requestUpdate();
  }

  private openForm(): void {
    this.form = { open: true };
    this.host.requestUpdate();
    void this.host.updateComplete.then(() => this.host.renderRoot?.querySelector<HTMLElement>('[part~="offline-email"]')?.focus());
  }

  private closeForm(): void {
    this.form = {};
    this.host.requestUpdate();
    this.focusInput();
  }

  /** Focus goes back to the composer when what held it goes away. */
  private focusInput(): void {
    void this.host.updateComplete.then(() => this.host.renderRoot?.querySelector<HTMLElement>('[part~="input"]')?.focus());
  }

  private stop(): void {
    this.following?.abort();
    this.following = undefined;
  }

  private scope(): HandoffScope {
    // without `bot-id` the offer names no bot (a token bound to one scopes the call itself)
    return { user_id: this.chat.userId, ...(this.offer?.bot_id && { bot_id: this.offer.bot_id }) };
  }

  private async api(): Promise<HandoffResource> {
    return new HandoffResource((await this.chat.getClient()).http);
  }

  /** The banner, "Talk to a person" or why nobody can answer, and the email form. */
  render(strings: WidgetStrings): TemplateResult | typeof nothing {
    const s = { ...handoffStrings, ...strings } as WidgetStrings & HandoffStrings;
    const { state, offer, form } = this;
    const status = state?.status;
    const operator = state?.operator;
    const typing = this.typing && this.typing.until > Date.now() ? this.typing.name : '';
    const banner =
      status === 'waiting' ? s.handoffWaiting
      : status === 'with_person' ? s.handoffJoined.replace('{name}', operator?.name ?? '')
      : status === 'closed' ? s.handoffClosed
      : this.returned ? s.handoffBack
      : '';
    const canAsk = offer?.enabled && this.conversationId && state && status === 'bot';
    const why = offer?.unavailable_reason === 'outside_hours' ? s.handoffOutsideHours : s.handoffNobodyOnline;
    return html`<div part="handoff" class="handoff">
      <div part="handoff-status" class="handoff-status" role="status">${banner
        ? html`${status === 'with_person' ? renderAvatar(safeAvatar(operator?.avatar_url)) : nothing}<span>${banner}</span>`
        : nothing}${typing ? html`<span class="handoff-typing">${s.handoffTyping.replace('{name}', typing)}</span>` : nothing}${form.sentTo
        ? html`<span>${s.offlineSent.replace('{email}', form.sentTo)}</span>`
        : nothing}</div>
      ${canAsk && !form.open && !form.sentTo
        ? offer!.available && !this.asking
          ? html`<div class="suggestions"><button part="handoff-button" type="button" @click=${() => this.ask()}>${s.talkToPerson}</button></div>`
          : offer!.available
            ? nothing
            : html`<div class="suggestions handoff-offline"><span>${why}</span><button part="leave-message-button" type="button"
                @click=${() => this.openForm()}>${s.leaveMessage}</button></div>`
        : nothing}
      ${form.open && this.conversationId ? this.renderForm(s, why) : nothing}
      ${this.survey?.render(strings) ?? nothing}
    </div>`;
  }

  private renderForm(s: WidgetStrings & HandoffStrings, why: string): TemplateResult {
    const { sending, failed } = this.form;
    return html`<form part="offline-form" class="offline-form" @submit=${(event: SubmitEvent) => this.leaveMessage(event)}>
      <p>${why}</p>
      <label>${s.offlineEmail}<input part="offline-email" name="email" type="email" required maxlength="254" autocomplete="email" /></label>
      <label>${s.offlineMessage}<textarea part="offline-message" name="message" required maxlength="4000" rows="3"></textarea></label>
      ${failed ? html`<p part="error" class="error" role="alert">${s.notSent} ${s.errorGeneric}</p>` : nothing}
      <div class="suggestions">
        <button part="offline-send" type="submit" ?disabled=${sending}>${s.send}</button>
        <button part="offline-cancel" type="button" @click=${() => this.closeForm()}>${s.cancel}</button>
      </div>
    </form>`;
  }
}
