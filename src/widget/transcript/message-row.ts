/** A message's row in the transcript, and the welcome that fills an empty one. */
import { html, nothing, type TemplateResult } from 'lit';
import { renderAuthor, renderStopped, renderTime } from '../chrome/chat-chrome.js';
import type { ChatController } from '../core/chat-controller.js';
import { errorText } from '../core/error-detail.js';
import type { TranscriptMessage } from '../core/events.js';
import type { WidgetStrings } from '../locales/strings.js';
import type { Highlighter } from '../markdown/code-block.js';
import { streamedMarkdown } from '../markdown/streamed-markdown.js';
import { renderCitations, sourceIds } from './citations.js';
import { renderActions, type ActionsContext } from './message-actions.js';

/** What every row of one render shares. */
export interface RowContext extends ActionsContext {
  chat: ChatController;
  s: WidgetStrings;
  /** The language of times and numbers. */
  language: string;
  highlight?: Highlighter;
  /** What screen readers call the assistant's replies (`bot-name`, the bot's own, "Assistant"). */
  assistant: string;
}

/**
 * `live`: the message arrived while the widget was showing (it animates in); `previous`: the
 * message before it, which decides whether it starts a new time group.
 */
export function renderMessage(m: TranscriptMessage, ctx: RowContext, live = false, previous?: TranscriptMessage): TemplateResult {
  const user = m.role === 'user';
  return html`<div part="message message-${m.role}" class="message ${m.role} ${m.status} ${live ? 'live' : ''}">
      ${renderTime(m, previous, ctx.language)}
      ${renderAuthor(m)}
      <div part="bubble" class="bubble"><span class="sr-only">${user ? ctx.s.you : m.author?.name || ctx.assistant}: </span>${user
        ? m.content
        : streamedMarkdown(m.content, { strings: ctx.s, highlight: ctx.highlight, sources: sourceIds(m) })}${ctx.chat.files.list(m, ctx.s)}</div>
      ${renderStopped(m, ctx.s)}
      ${renderCitations(m, ctx.s)}
      ${renderActions(m, ctx.s, ctx)}
      ${m.status === 'failed'
        ? html`<div part="error" class="error">
            ${ctx.s.notSent} ${errorText(m.error?.code ?? 'unknown_error', ctx.s)}
            <button part="retry-button" type="button" @click=${() => ctx.chat.retry(m.id)}>
              ${ctx.s.retry}
            </button>
          </div>`
        : nothing}
    </div>`;
}

/**
 * The host's `welcome-message` as the first assistant bubble (never sent), else a localised
 * greeting while the transcript is empty.
 */
export function renderWelcome(welcomeMessage: string, ctx: RowContext): TemplateResult | typeof nothing {
  return welcomeMessage
    ? renderMessage({ id: 'welcome', role: 'assistant', content: welcomeMessage, time: '', status: 'sent' }, ctx)
    : ctx.chat.messages.length
      ? nothing
      : html`<div part="welcome" class="message assistant sent">
          <div part="bubble" class="bubble"><span class="sr-only">${ctx.assistant}: </span>${ctx.s.welcome}</div>
        </div>`;
}
