import { html, nothing, type TemplateResult } from 'lit';
import type { ChatController } from '../core/chat-controller.js';
import { isDelivering } from '../core/chat-status.js';
import type { WidgetStrings } from '../locales/strings.js';

/**
 * The quick replies under the transcript: the host's and the bot's starters before the first
 * message, then the last reply's suggestions once it has arrived.
 */
export function renderSuggestions(
  chat: ChatController,
  starters: readonly string[],
  s: WidgetStrings,
  send: (text: string) => void,
): TemplateResult | typeof nothing {
  const { messages, status } = chat;
  const last = messages[messages.length - 1];
  const items = !messages.length
    ? [...starters, ...chat.starters]
    : last.role === 'assistant' && !isDelivering(status)
      ? (last.suggestions ?? [])
      : [];
  if (!items.length) return nothing;
  return html`<div part="suggestions" class="suggestions" role="group" aria-label=${s.suggestions}>
    ${items.map(
      (text) => html`<button part="suggestion" type="button" ?disabled=${status === 'rate-limited'}
        @click=${() => send(text)}>${text}</button>`,
    )}
  </div>`;
}

/**
 * The status line, a polite live region: offline, the rate-limit countdown, or why the draft
 * cannot be sent (`draftProblem`), in that order; and "typing" for screen readers.
 */
export function renderStatus(chat: ChatController, s: WidgetStrings, draftProblem: string | null): TemplateResult {
  const { status } = chat;
  const seconds = Math.max(1, Math.ceil((chat.rateLimitedUntil - Date.now()) / 1000));
  const text =
    status === 'offline'
      ? s.offline
      : status === 'rate-limited'
        ? s.rateLimited.replace('{n}', String(seconds))
        : draftProblem;
  return html`<div part="status" class="status ${text ? 'shown' : ''}" role="status">
    ${text ?? nothing}
    ${status === 'awaiting-reply' ? html`<span class="sr-only">${s.typing}</span>` : nothing}
  </div>`;
}
