/**
 * The widget's chrome around the conversation: the Stop button, the header's
 * "New conversation" action with its inline confirmation, the bot's avatar, the note under a
 * stopped reply, and the time shown where a group of messages starts. Render helpers only; the
 * element owns the state.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { TranscriptMessage } from '../core/events.js';
import type { WidgetStrings } from '../locales/strings.js';

/** A new time label when this much passes between two messages (or the day changes). */
export const TIME_GAP_MS = 5 * 60_000;

const stopIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon filled"><rect x="7" y="7" width="10" height="10" rx="1.5" /></svg>`;
const newIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true" class="icon"><path d="M12 5v14M5 12h14" /></svg>`;

/**
 * An avatar URL the widget may load: `https:`, `http:` or an inline image (`data:image/…`), else
 * empty. (An `<img>` runs no script, but a `javascript:` or other scheme has no business here.)
 */
export function safeAvatar(url: string | null | undefined): string {
  return url && /^(https?:\/\/|data:image\/)/i.test(url.trim()) ? url.trim() : '';
}

/** The bot's avatar in the header; decorative, the name beside it says who it is. */
export function renderAvatar(url: string): TemplateResult | typeof nothing {
  return url ? html`<img part="avatar" class="avatar" src=${url} alt="" />` : nothing;
}

/**
 * An operator's name and avatar above their message (human handoff). Hidden from screen readers,
 * which hear the name at the start of the bubble, as for every message.
 */
export function renderAuthor(m: TranscriptMessage): TemplateResult | typeof nothing {
  return m.author
    ? html`<div part="author" class="author" aria-hidden="true">${renderAvatar(safeAvatar(m.author.avatar_url))}${m.author.name}</div>`
    : nothing;
}

/** The Stop button beside Send while a reply is on its way. */
export function renderStop(replying: boolean, s: WidgetStrings, stop: () => void): TemplateResult | typeof nothing {
  return replying
    ? html`<button part="stop-button" class="send stop" type="button" aria-label=${s.stop} @click=${stop}>${stopIcon}</button>`
    : nothing;
}

/** The header's "New conversation" button, once there is a conversation to leave. */
export function renderNewButton(shown: boolean, s: WidgetStrings, ask: () => void): TemplateResult | typeof nothing {
  return shown
    ? html`<button part="new-conversation-button" class="icon-button new" type="button" aria-label=${s.newConversation}
        title=${s.newConversation} @click=${ask}>${newIcon}</button>`
    : nothing;
}

/**
 * The inline confirmation under the header (not `window.confirm`): New conversation, or Cancel. Its
 * buttons are pills like the quick replies (the `suggestions` class).
 */
export function renderConfirm(s: WidgetStrings, answer: (yes: boolean) => void): TemplateResult {
  return html`<div part="confirm" class="confirm suggestions" role="alertdialog" aria-label=${s.newConversation}
    aria-describedby="confirm-text">
    <p id="confirm-text">${s.confirmReset}</p>
    <button part="confirm-button" type="button" @click=${() => answer(true)}>${s.newConversation}</button>
    <button part="cancel-button" type="button" @click=${() => answer(false)}>${s.cancel}</button>
  </div>`;
}

/** The note under a reply the user stopped (read with the reply: it is inside the live log). */
export function renderStopped(m: TranscriptMessage, s: WidgetStrings): TemplateResult | typeof nothing {
  return m.stopped ? html`<div part="stopped" class="stopped">${s.stopped}</div>` : nothing;
}

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/**
 * The time above the first message of a group: when `TIME_GAP_MS` passed since the previous
 * message or the day changed. Today's messages show the time, older ones the date too, in `lang`.
 */
export function renderTime(m: TranscriptMessage, previous: TranscriptMessage | undefined, lang: string): TemplateResult | typeof nothing {
  const at = new Date(m.time);
  if (!m.time || Number.isNaN(at.getTime())) return nothing;
  const before = previous?.time ? new Date(previous.time) : null;
  if (before && at.getTime() - before.getTime() < TIME_GAP_MS && sameDay(at, before)) return nothing;
  const today = sameDay(at, new Date());
  const text = new Intl.DateTimeFormat(lang, today ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  return html`<time part="time" class="time" datetime=${m.time}>${text}</time>`;
}
