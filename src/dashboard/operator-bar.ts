import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { HandoffEvent } from '../client/index.js';
import type { DashboardApi } from './api.js';
import { followInbox } from './inbox-stream.js';
import { beep, notificationPermission, notifyWaiting, setSoundMuted, soundMuted } from './attention.js';
import { LocaleController, locale, t } from './i18n/i18n.js';
import type { InboxCounts, OperatorPresence, PresenceStatus } from './types.js';
import { PRESENCE_LABELS as LABELS } from './ui/format.js';

/** Activity is reported at most this often (the service's idle limit is minutes). */
const ACTIVITY_EVERY_MS = 60_000;
/** The shown status is read again this often, so an idle `away` shows without a click. */
const PRESENCE_EVERY_MS = 60_000;
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel'] as const;


/** The inbox's numbers changed (the shell's badge and tab title follow them). */
export class InboxCountsEvent extends Event {
  constructor(readonly counts: InboxCounts) {
    super('aicd-inbox-counts', { bubbles: true, composed: true });
  }
}

/**
 * The operator's part of the dashboard shell, on every page: their presence (a choice of online,
 * away, offline, with what it shows as when it decayed), the beep's mute toggle and the button that
 * asks for desktop notifications. It keeps the inbox's events stream open (inbox-stream.ts, shared
 * with the pages that follow it), which makes this dashboard count as open, reports activity (at
 * most once a minute), and on every change of a conversation's status reads the inbox counts; a new
 * waiting conversation beeps, and shows a desktop notification when this tab is hidden or not on
 * the Inbox.
 *
 * The shell loads it after sign-in (its own chunk, outside the initial load).
 *
 * @fires aicd-inbox-counts - `InboxCountsEvent`: conversations waiting and held by this operator.
 */
@customElement('aicd-operator-bar')
export class AicdOperatorBar extends LitElement {
  static override styles = css`
    :host {
      display: flex;
      align-items: center;
      gap: 0.6rem;
      flex-wrap: wrap;
      font-size: 0.9rem;
    }
    select,
    button {
      font: inherit;
      padding: 0.2rem 0.5rem;
      border-radius: 6px;
      border: 1px solid #9ca3af;
      background: transparent;
      color: inherit;
      cursor: pointer;
    }
    option {
      color: #1b1f24;
    }
    .dot {
      display: inline-block;
      width: 0.6rem;
      height: 0.6rem;
      border-radius: 50%;
      margin-inline-end: 0.3rem;
      background: #9ca3af;
    }
    .dot.online {
      background: #22c55e;
    }
    .dot.away {
      background: #f59e0b;
    }
    .shown {
      font-size: 0.8rem;
      opacity: 0.85;
    }
    :is(select, button):focus-visible {
      outline: 2px solid #93c5fd;
      outline-offset: 2px;
    }
    /* a phone: touch targets (the shell's breakpoint, app.styles.ts) */
    @media (max-width: 700px) {
      select,
      button {
        min-height: 44px;
        min-width: 44px;
      }
    }
  `;

  /** The dashboard API of the signed-in session. */
  @property({ attribute: false }) api!: DashboardApi;

  @state() private presence: OperatorPresence | null = null;
  @state() private muted = soundMuted();
  @state() private permission = notificationPermission();
  @state() private problem = '';

  private stop: AbortController | null = null;
  private poll: ReturnType<typeof setInterval> | undefined;
  private readonly i18n = new LocaleController(this);
  private lastActivity = 0;
  private readonly onActivity = () => {
    const now = Date.now();
    if (now - this.lastActivity < ACTIVITY_EVERY_MS) return;
    this.lastActivity = now;
    void this.api.presenceActivity().then((p) => (this.presence = p), () => {});
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.lastActivity = Date.now(); // connecting counts as activity on the service
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, this.onActivity, { capture: true, passive: true });
    this.poll = setInterval(() => void this.readPresence(), PRESENCE_EVERY_MS);
    void this.follow();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, this.onActivity, { capture: true });
    clearInterval(this.poll);
    this.stop?.abort();
  }

  override render() {
    const p = this.presence;
    return html`<label><span class="dot ${p?.status ?? ''}"></span>${t('operator.status')}
        <select name="presence" .value=${p?.chosen ?? 'online'} ?disabled=${!p} @change=${this.choose}>
          ${(['online', 'away', 'offline'] as const).map((s) => html`<option value=${s} ?selected=${p?.chosen === s}>${LABELS[s]}</option>`)}
        </select></label
      >
      <span class="shown" role="status">${p && p.status !== p.chosen ? t(p.status === 'away' ? 'operator.showsAsIdle' : 'operator.showsAs', { status: LABELS[p.status].toLocaleLowerCase(locale()) }) : this.problem}</span>
      <button type="button" aria-pressed=${this.muted ? 'false' : 'true'} @click=${this.toggleSound}>${t('operator.sound')}</button>
      ${this.permission === 'default' ? html`<button type="button" @click=${this.askPermission}>${t('operator.notifications')}</button>` : nothing}`;
  }

  private async follow(): Promise<void> {
    this.stop?.abort();
    const stop = (this.stop = new AbortController());
    // Upgraded after the shell set `api` (this module loads late): Lit restores it at the first update.
    await this.updateComplete;
    if (stop.signal.aborted) return;
    const unfollow = followInbox(this.api, {
      // Each (re)connection: the stream counts from here on, so read what happened before it.
      ready: () => void Promise.all([this.readCounts(), this.readPresence()]),
      event: (event) => this.onEvent(event),
      error: (error) => (this.problem = error instanceof Error ? error.message : String(error)),
    });
    stop.signal.addEventListener('abort', unfollow);
  }

  private onEvent(event: HandoffEvent): void {
    if (event.type !== 'status') return;
    void this.readCounts();
    if (event.data.status !== 'waiting') return;
    beep();
    if (document.hidden || location.hash !== '#/inbox') notifyWaiting(event.data.conversation_id);
  }

  private async readCounts(): Promise<void> {
    try {
      this.dispatchEvent(new InboxCountsEvent(await this.api.inboxCounts()));
    } catch {
      // the next status event or reconnect reads them again
    }
  }

  private async readPresence(): Promise<void> {
    try {
      this.presence = await this.api.presence();
      this.problem = '';
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
    }
  }

  private async choose(event: Event): Promise<void> {
    const status = (event.target as HTMLSelectElement).value as PresenceStatus;
    try {
      this.presence = await this.api.setPresence(status);
      this.problem = '';
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
    }
  }

  private toggleSound(): void {
    this.muted = !this.muted;
    setSoundMuted(this.muted);
  }

  private async askPermission(): Promise<void> {
    await Notification.requestPermission();
    this.permission = notificationPermission();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'aicd-operator-bar': AicdOperatorBar;
  }
  interface GlobalEventHandlersEventMap {
    'aicd-inbox-counts': InboxCountsEvent;
  }
}
