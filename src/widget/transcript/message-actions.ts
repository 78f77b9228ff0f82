/**
 * The action row under each finished assistant answer: Copy (the answer's markdown text), and
 * thumbs up / thumbs down, with a short form after a thumbs down (a reason from a short list and
 * free text, Send or Cancel). Each choice fires `ai-chat-feedback` (cancelable: a host that handles
 * feedback itself calls `preventDefault()` and nothing is sent) and goes to the service through the
 * widget's client, as the conversation's user (a token proxy forces its own user and bot anyway).
 *
 * The reason form is an add-on (feedback-form.ts), loaded at the first thumbs down.
 *
 * The state lives in the message (`TranscriptMessage.feedback`), changed through the controller:
 * the row is then rendered again even when the transcript has frozen it (transcript-rows.ts), and
 * the rating survives a reload with the stored conversation.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { loadAddon, type Addon } from '../addons/loader.js';
import { copy } from '../markdown/code-block.js';
import { toErrorDetail } from '../core/error-detail.js';
import { AiChatErrorEvent, AiChatFeedbackEvent, type MessageFeedback, type TranscriptMessage } from '../core/events.js';
import type { WidgetStrings } from '../locales/strings.js';
import type { WidgetClient } from '../connection/widget-client.js';

/** What the row needs from the widget (the element passes itself and its `ChatController`). */
export interface ActionsContext {
  host: HTMLElement;
  chat: {
    /** The bot the widget talks to (`bot-id`), or empty. */
    readonly botId: string;
    readonly userId: string;
    readonly messages: readonly TranscriptMessage[];
    getClient(): Promise<WidgetClient>;
    /** Changes one message and stores the transcript. */
    amend(id: string, change: Partial<TranscriptMessage>): void;
  };
  /** false: `no-feedback` (the Copy button stays). */
  feedback: boolean;
}

const copyIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon"><path d="M9 9h11v11H9zM5 15V4h11" /></svg>`;
const thumbIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon"><path
  d="M7 11v9H4v-9zm0 0 4-8c1.5 0 2.5 1 2 3l-1 4h6a2 2 0 0 1 2 2.4l-1.4 6A2 2 0 0 1 16.6 20H7" /></svg>`;

/** The reason form after a thumbs down (an add-on, loaded at the first thumbs down). */
let reasonForm: Addon<'feedback-form'> | undefined;

/**
 * Feedback calls go out one after another, so a quick up-then-down reaches the service in the order
 * it was pressed (two requests in flight could be stored the other way round).
 */
let queue: Promise<void> = Promise.resolve();

/** Tells the host, then (unless it cancelled) the service; a failure puts the previous state back. */
function send(ctx: ActionsContext, m: TranscriptMessage, next: MessageFeedback | undefined): void {
  const previous = m.feedback;
  ctx.chat.amend(m.id, { feedback: next });
  const messageId = m.serverId!;
  const detail = { messageId, rating: next?.rating ?? null, reason: next?.reason ?? null, comment: next?.comment ?? null };
  if (ctx.host.dispatchEvent(new AiChatFeedbackEvent(detail))) queue = queue.then(() => deliver(ctx, m, previous, next));
}

async function deliver(ctx: ActionsContext, m: TranscriptMessage, previous?: MessageFeedback, next?: MessageFeedback): Promise<void> {
  const messageId = m.serverId!;
  try {
    const client = await ctx.chat.getClient();
    const scope = { user_id: ctx.chat.userId, ...(ctx.chat.botId && { bot_id: ctx.chat.botId }) };
    if (!next) await client.feedback.delete(messageId, scope);
    else await client.feedback.give(messageId, { ...scope, rating: next.rating, ...(next.reason && { reason: next.reason }), ...(next.comment && { comment: next.comment }) });
  } catch (error) {
    // back to what the service still has, unless the user has pressed again since
    if (ctx.chat.messages.find((x) => x.id === m.id)?.feedback === next) ctx.chat.amend(m.id, { feedback: previous });
    ctx.host.dispatchEvent(new AiChatErrorEvent(toErrorDetail(error)));
  }
}

/** The reason form was answered: the reason goes to the service; Cancel (or no reason) sends nothing more. */
function answered(ctx: ActionsContext, m: TranscriptMessage, feedback: MessageFeedback | null): void {
  if (feedback) send(ctx, m, feedback);
  else ctx.chat.amend(m.id, { feedback: { rating: 'down', reason: null } });
  void refocus(ctx, m.id);
}

/** After the form closes its buttons are gone: focus goes back to the thumbs down it came from. */
async function refocus(ctx: ActionsContext, id: string): Promise<void> {
  await (ctx.host as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
  ctx.host.shadowRoot?.querySelector<HTMLElement>(`[data-actions="${id}"] .down`)?.focus();
}

function rate(ctx: ActionsContext, m: TranscriptMessage, rating: 'up' | 'down'): void {
  // pressing the pressed thumb again takes the feedback back
  const next = m.feedback?.rating === rating ? undefined : { rating };
  send(ctx, m, next);
  // the reason form is an add-on: once it is at hand the row is rendered again, with the form
  if (next?.rating === 'down' && !reasonForm) {
    void loadAddon('feedback-form').then((addon) => {
      reasonForm = addon;
      const now = ctx.chat.messages.find((x) => x.id === m.id)?.feedback;
      if (now?.rating === 'down' && now.reason === undefined) ctx.chat.amend(m.id, { feedback: { ...now } });
    }, () => {}); // without it, the thumbs down stands alone
  }
}

/** The row under a finished answer the service stored; nothing under any other message. */
export function renderActions(m: TranscriptMessage, s: WidgetStrings, ctx: ActionsContext): TemplateResult | typeof nothing {
  if (m.role !== 'assistant' || m.status !== 'sent' || !m.serverId) return nothing;
  const rating = m.feedback?.rating;
  const pressed = (value: 'up' | 'down') => String(rating === value);
  return html`<div part="actions" class="actions" data-actions=${m.id}><button part="copy-answer" class="icon-button"
      type="button" aria-label=${s.copy} @click=${(e: Event) => copy(e, m.content, s.copied)}>${copyIcon}</button><span
      role="status"></span>${ctx.feedback
        ? html`<button part="feedback-button feedback-up" class="icon-button" type="button" aria-label=${s.goodAnswer}
              aria-pressed=${pressed('up')} @click=${() => rate(ctx, m, 'up')}>${thumbIcon}</button><button
              part="feedback-button feedback-down" class="icon-button down" type="button" aria-label=${s.badAnswer}
              aria-pressed=${pressed('down')} @click=${() => rate(ctx, m, 'down')}>${thumbIcon}</button>`
        : nothing}</div>${ctx.feedback && rating === 'down' && m.feedback?.reason === undefined && reasonForm
      ? reasonForm.renderReasonForm(s, (feedback) => answered(ctx, m, feedback), ctx.host)
      : nothing}`;
}
