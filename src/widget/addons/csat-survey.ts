/**
 * The satisfaction survey (CSAT): "How would you rate this conversation?", five stars (a radio
 * group: arrow keys choose, a screen reader names each choice) and an optional comment, once per
 * conversation. An add-on (catalog.ts) loaded at one of two moments: the handoff add-on's, when an
 * operator ends their part of a conversation (`after_handoff`), and `BotSurvey`'s, when the visitor
 * closes the panel after a conversation the bot answered alone (`after_bot`). It asks the service
 * first whether the bot's settings want a rating then (`GET /v1/conversations/{id}/csat`: `survey`,
 * `moment`) and whether one was given already, so a reload or a second tab never asks twice. Sending fires `ai-chat-csat` (cancelable: a host that collects
 * ratings itself calls `preventDefault()` and nothing is sent) and then
 * `POST /v1/conversations/{id}/csat` as the conversation's user.
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { CsatResource } from '../../client/resources/csat.js';
import type { HandoffScope } from '../../client/resources/handoff.js';
import type { CsatRating, CsatState } from '../../client/types.js';
import { AiChatCsatEvent } from '../core/events.js';
import type { CsatStrings, WidgetStrings } from '../locales/strings.js';
import styles from '../styles/csat.styles.js';
import type { WidgetClient } from '../connection/widget-client.js';
import { adoptStyles } from './adopt-styles.js';

/** English; the other languages' tables carry their own (strings.ts). */
export const csatStrings: CsatStrings = {
  csatQuestion: 'How would you rate this conversation?',
  csatRatings: 'Very bad|Bad|Okay|Good|Very good',
  csatComment: 'Anything to add? (optional)',
  csatThanks: 'Thank you for rating this conversation.',
};

/** The widget (as the handoff add-on passes it): a controller host that dispatches its events, with the shadow root it renders into. */
type SurveyHost = ReactiveControllerHost & EventTarget & { readonly renderRoot?: HTMLElement | DocumentFragment };

/** Asking, sending, failed to send (asking again), or thanked. */
type Step = 'ask' | 'sending' | 'failed' | 'thanked';

export class CsatSurvey {
  /** null: nothing to show (not asked for, rated already, dismissed, or not read yet). */
  private step: Step | null = null;

  constructor(
    private readonly host: SurveyHost,
    private readonly chat: { getClient(): Promise<WidgetClient> },
    /** The conversation the operator ended. */
    readonly conversationId: string,
    private readonly scope: HandoffScope,
  ) {
    adoptStyles(host.renderRoot, styles);
  }

  /** Shows the survey if the bot's settings ask for a rating (at `moment`, if named) and none was given. Best effort: no answer, no survey. */
  async start(moment?: CsatState['moment']): Promise<void> {
    try {
      const { data } = await (await this.api()).state(this.conversationId, this.scope, { maxRetries: 0 });
      if (data.survey && !data.csat && (!moment || data.moment === moment)) this.show('ask');
    } catch {
      // the service cannot be reached, or the conversation is gone: no survey
    }
  }

  private show(step: Step | null): void {
    this.step = step;
    this.host.requestUpdate();
  }

  private async send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const rating = Number(data.get('rating')) as CsatRating;
    if (!rating) return;
    const comment = String(data.get('comment') ?? '').trim() || null;
    if (!this.host.dispatchEvent(new AiChatCsatEvent({ conversationId: this.conversationId, rating, comment }))) return this.thank();
    this.show('sending');
    try {
      await (await this.api()).give(this.conversationId, { rating, ...(comment && { comment }), ...this.scope });
      this.thank();
    } catch (error) {
      // given already (another tab): the visitor's rating is in, thank them all the same
      if ((error as { code?: string }).code === 'csat_already_given') this.thank();
      else this.show('failed');
    }
  }

  /** Thanked; focus, which was on a button that is gone now, goes back to the composer. */
  private thank(): void {
    this.show('thanked');
    void this.host.updateComplete.then(() => this.host.renderRoot?.querySelector<HTMLElement>('[part~="input"]')?.focus());
  }

  private async api(): Promise<CsatResource> {
    return new CsatResource((await this.chat.getClient()).http);
  }

  render(strings: WidgetStrings): TemplateResult | typeof nothing {
    const s = { ...csatStrings, ...strings } as WidgetStrings & CsatStrings;
    const { step } = this;
    if (!step) return nothing;
    if (step === 'thanked') return html`<p part="csat" class="csat" role="status">${s.csatThanks}</p>`;
    return html`<form part="csat" class="csat" @submit=${(event: SubmitEvent) => this.send(event)}>
      <fieldset>
        <legend>${s.csatQuestion}</legend>
        <div class="csat-stars">${s.csatRatings.split('|').map(
          (label, i) => html`<label title=${label}><input type="radio" name="rating" value=${i + 1} required aria-label=${label} /><span
            aria-hidden="true">★</span></label>`,
        )}</div>
      </fieldset>
      <textarea name="comment" rows="2" maxlength="1000" aria-label=${s.csatComment} placeholder=${s.csatComment}></textarea>
      ${step === 'failed' ? html`<p class="error" role="alert">${s.notSent} ${s.errorGeneric}</p>` : nothing}
      <div class="suggestions">
        <button type="submit" ?disabled=${step === 'sending'}>${s.send}</button>
        <button type="button" @click=${() => this.show(null)}>${s.dismiss}</button>
      </div>
    </form>`;
  }
}

/** What `BotSurvey` needs of the widget's `ChatController`. */
interface SurveyChat {
  readonly conversationId: string | null;
  readonly botId: string;
  readonly userId: string;
  getClient(): Promise<WidgetClient>;
}

/**
 * The survey after a conversation the bot answered alone (the bot's `after_bot`): asked when the
 * visitor closes the panel (`HandoffLoader` builds this at the first close, `ai-chat-close` brings
 * the later ones), shown at the foot of that conversation when they open it again, and only while
 * it is the widget's conversation. A conversation a person took is the handoff add-on's to ask
 * about (`after_handoff`), never this one's.
 */
export class BotSurvey {
  private survey?: CsatSurvey;

  constructor(
    private readonly host: SurveyHost,
    private readonly chat: SurveyChat,
  ) {
    host.addEventListener('ai-chat-close', () => this.closed());
    this.closed();
  }

  /** The visitor closed the panel: ask about the conversation once, if the bot's settings want it. */
  private closed(): void {
    const id = this.chat.conversationId;
    if (!id || this.survey?.conversationId === id) return;
    this.survey = new CsatSurvey(this.host, this.chat, id, { user_id: this.chat.userId, ...(this.chat.botId && { bot_id: this.chat.botId }) });
    void this.survey.start('after_bot');
  }

  render(strings: WidgetStrings): TemplateResult | typeof nothing {
    return this.survey?.conversationId === this.chat.conversationId ? this.survey.render(strings) : nothing;
  }
}
