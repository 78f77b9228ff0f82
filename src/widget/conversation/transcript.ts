/** Pure helpers between the wire's messages and the widget's transcript. */
import type { ChatMessage, Citation, HistoryQuery, Message } from '../../client/index.js';
import type { TranscriptMessage } from '../core/events.js';
import type { WidgetClient } from '../connection/widget-client.js';

/** The chat request accepts 1–100 messages of at most 8000 characters each. */
const MAX_CHAT_MESSAGES = 100;
const MAX_CONTENT = 8000;
const HISTORY_PAGE = 200;
const MAX_HISTORY_PAGES = 5;

export type Source = Pick<Citation, 'title' | 'source' | 'url'>;

/** What the transcript keeps of a reply's citations (`url` only when there is one). */
export function toSources(citations: readonly Citation[] | undefined): Source[] | undefined {
  return citations?.length ? citations.map(({ title, source, url }) => ({ title, source, ...(url && { url }) })) : undefined;
}

/** A stored message as the transcript shows it (`suggestions`: the reply's, when given apart). */
export function fromServer(m: Message, suggestions = m.suggestions): TranscriptMessage {
  return {
    id: m.id,
    serverId: m.id,
    role: m.role === 'user' || m.role === 'operator' ? m.role : 'assistant',
    content: m.content,
    time: m.created_at,
    status: 'sent',
    suggestions: suggestions?.length ? suggestions : undefined,
    citations: toSources(m.citations),
    source: m.source,
    stopped: m.stopped,
    author: m.author,
    attachments: m.attachments,
  };
}

/** A message that was on its way when the page went away is offered for retry, not resent. */
export function asRestored(m: TranscriptMessage): TranscriptMessage {
  return m.status === 'sending' ? { ...m, status: 'failed', error: { code: 'network_error', message: '' } } : m;
}

/** `text` cut to `max` UTF-16 units without splitting a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * The conversation up to `message`, as `POST /chat` takes it: delivered messages plus this one.
 * Earlier messages are clipped to the request's limit: a long reply (say, an extract of a huge
 * knowledge entry) must not make every later request of the conversation invalid. The new message
 * is sent as typed, so an overlong one is refused rather than silently cut.
 */
export function chatMessages(messages: readonly TranscriptMessage[], message: TranscriptMessage): ChatMessage[] {
  return messages
    .slice(0, messages.indexOf(message) + 1)
    // a file-only message (empty text) is valid only as the last one: the files went with it
    .filter((m) => (m.status === 'sent' && m.content) || m === message)
    .slice(-MAX_CHAT_MESSAGES)
    // a person's answer (human handoff) is the other side of the conversation, as the bot's is
    .map(({ role, content }, i, all) => ({ role: role === 'operator' ? 'assistant' : role, content: i === all.length - 1 ? content : clip(content, MAX_CONTENT) }));
}

/** The conversation's stored messages (system messages left out), oldest first. */
export async function fetchHistory(
  client: WidgetClient,
  query: HistoryQuery,
  signal: AbortSignal,
): Promise<TranscriptMessage[]> {
  const items: Message[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_HISTORY_PAGES; page++) {
    const { data } = await client.chat.history({ ...query, limit: HISTORY_PAGE, cursor }, { signal });
    items.push(...data.items);
    if (!data.has_more || !data.next_cursor) break;
    cursor = data.next_cursor;
  }
  // pages may come newest-first; a stable sort by time keeps each page's own order for ties
  const seen = new Set<string>();
  return items
    .filter((m) => m.role !== 'system' && !seen.has(m.id) && seen.add(m.id))
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
    .map((m) => fromServer(m));
}
