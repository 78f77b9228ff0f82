/**
 * The short form after a thumbs down under an answer (message-actions.ts): a reason from the
 * service's list and free text, Send or Cancel. An add-on (catalog.ts), loaded at the first thumbs
 * down of the page: most visitors never open it.
 */
import { html, type TemplateResult } from 'lit';
import type { FeedbackReason } from '../../client/types.js';
import type { MessageFeedback } from '../core/events.js';
import type { WidgetStrings } from '../locales/strings.js';
import styles from '../styles/feedback-form.styles.js';
import { adoptStyles } from './adopt-styles.js';

/** The service's reasons, in the order of `WidgetStrings.feedbackReasons`. */
const REASONS: readonly FeedbackReason[] = ['incorrect', 'not_helpful', 'incomplete', 'other'];

/**
 * `answered` gets the thumbs down with its reason and comment, or `null` when there is none (Cancel,
 * or nothing chosen); `host`: the widget, whose shadow root takes the form's styles.
 */
export function renderReasonForm(
  s: WidgetStrings,
  answered: (feedback: MessageFeedback | null) => void,
  host?: Element,
): TemplateResult {
  adoptStyles(host?.shadowRoot, styles);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const cancelled = event.submitter?.classList.contains('cancel');
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const reason = cancelled ? null : ((data.get('reason') as FeedbackReason | null) ?? null);
    const comment = cancelled ? null : String(data.get('comment') ?? '').trim() || null;
    answered(reason || comment ? { rating: 'down', reason, comment } : null);
  };
  return html`<form part="feedback-form" class="feedback-form suggestions" @submit=${submit}>
    <fieldset>
      <legend>${s.feedbackReason}</legend>
      ${s.feedbackReasons.split('|').map(
        (label, i) => html`<label><input type="radio" name="reason" value=${REASONS[i] ?? 'other'} />${label}</label>`,
      )}
    </fieldset>
    <textarea part="feedback-comment" name="comment" rows="2" maxlength="1000" aria-label=${s.feedbackComment}
      placeholder=${s.feedbackComment}></textarea>
    <button part="feedback-send" type="submit">${s.send}</button>
    <button part="feedback-cancel" class="cancel" type="submit">${s.cancel}</button>
  </form>`;
}
