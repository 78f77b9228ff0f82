/**
 * Slack (Events API, https://api.slack.com/apis/events-api). Every request Slack makes — events,
 * the one-time `url_verification`, button presses — carries `X-Slack-Signature`, checked with the
 * signing secret (and the age of `X-Slack-Request-Timestamp`) before the body is parsed. Events
 * arrive as JSON (`event_callback`, `event_id` the delivery's id; a retry repeats it with
 * `X-Slack-Retry-Num`, so it is stored once); button presses as a form with one `payload=` field
 * (`block_actions`), at the same URL. Each thread is a chat: replies go to
 * `chat.postMessage` with `thread_ts` (the incoming message's thread, or the message itself, so the
 * bot answers in a thread), in mrkdwn (format.ts wrote it), quick replies as Block Kit buttons.
 * Files in both directions: media.ts.
 */
import { decodeUtf8, parseJsonText } from '../../../../src/proxy/json-body.ts';
import { ServiceError } from '../../http/errors.ts';
import type { ChannelAccess, ChannelAdapter, InboundEvent, InboundFile, OutboundFile, OutboundReply, ParsedDelivery, SendResult } from '../adapter.ts';
import { arr, cutChars, obj, parseBody, str, type Obj } from '../payload.ts';
import { postForm, postJson, type Download, type PlatformRequest } from '../platform-http.ts';
import { verifySlackSignature } from '../signature.ts';
import { downloadFile, sendFile } from './media.ts';
import { slackChat, threadOf } from './thread.ts';

export const SIGNATURE_HEADER = 'x-slack-signature';
export const TIMESTAMP_HEADER = 'x-slack-request-timestamp';
/** Message subtypes that are still a person writing; every other (edits, joins, bots) is not a question. */
const PERSON_SUBTYPES = new Set(['file_share', 'thread_broadcast']);
const CHALLENGE = /^[A-Za-z0-9_.~+/=-]{1,256}$/;

export class SlackAdapter implements ChannelAdapter {
  readonly type = 'slack' as const;
  /**
   * A piece is one section block (3,000 characters of mrkdwn), so any piece can carry the buttons
   * in the actions block beside it; an actions block holds 25 elements, a button's text 75 characters.
   */
  readonly limits = { maxTextChars: 3000, maxQuickReplies: 25, maxQuickReplyChars: 75, maxCaptionChars: 3000 };
  readonly secretFields = ['bot_token', 'signing_secret'] as const;
  readonly settingFields = [] as const;

  constructor(private readonly options: { apiUrl: string; timeoutMs: number; now: () => number }) {}

  verify(rawBody: Uint8Array, headers: Headers, channel: ChannelAccess): boolean {
    const secret = channel.secrets.signing_secret;
    const header = headers.get(SIGNATURE_HEADER) ?? undefined;
    return secret !== undefined && verifySlackSignature(header, headers.get(TIMESTAMP_HEADER) ?? undefined, secret, rawBody, this.options.now());
  }

  parse(rawBody: Uint8Array): ParsedDelivery {
    if (!decodeUtf8(rawBody)?.trimStart().startsWith('{')) return { events: pressEvents(formPayload(rawBody)), statuses: [] };
    const body = obj(parseBody(rawBody));
    if (body?.type === 'url_verification') {
      const challenge = str(body.challenge);
      if (!challenge || !CHALLENGE.test(challenge)) throw new ServiceError('validation_failed', 'A url_verification has a challenge of up to 256 characters.', { param: 'challenge' });
      return { events: [], statuses: [], challenge };
    }
    if (body?.type !== 'event_callback') throw new ServiceError('validation_failed', 'A Slack event is an event_callback or a url_verification.', { param: 'type' });
    const event = messageEvent(body);
    return { events: event ? [event] : [], statuses: [] };
  }

  async send(channel: ChannelAccess, chat: string, reply: OutboundReply, signal: AbortSignal): Promise<SendResult> {
    const { channel: id, threadTs } = threadOf(chat);
    const text = reply.text || '…';
    const buttons = reply.quickReplies.slice(0, this.limits.maxQuickReplies).map((option, i) => ({
      type: 'button',
      action_id: `qr_${i}`,
      text: { type: 'plain_text', text: cutChars(option, this.limits.maxQuickReplyChars), emoji: true },
      value: cutChars(option, 2000),
    }));
    const blocks = buttons.length ? [{ type: 'section', text: { type: 'mrkdwn', text } }, { type: 'actions', block_id: 'quick_replies', elements: buttons }] : undefined;
    // `text` is the notification's and screen reader's version when blocks are shown; links are not unfurled (citations would fill the thread).
    const body = { channel: id, ...(threadTs && { thread_ts: threadTs }), text, ...(blocks && { blocks }), unfurl_links: false, unfurl_media: false };
    const sent = await this.call(channel, 'chat.postMessage', body, signal);
    if (!sent.ok) return sent;
    const ts = str(sent.answer.ts);
    return ts ? { ok: true, externalId: ts } : { ok: false, retryable: false, error: 'Slack answered without a message ts' };
  }

  sendFile(channel: ChannelAccess, chat: string, file: OutboundFile & { data: Uint8Array }, caption: string, signal: AbortSignal): Promise<SendResult> {
    return sendFile(this, channel, chat, file, caption, signal);
  }

  download(channel: ChannelAccess, file: InboundFile, maxBytes: number, signal: AbortSignal): Promise<Download> {
    return downloadFile(this, channel, file, maxBytes, signal);
  }

  get apiUrl(): string {
    return this.options.apiUrl;
  }

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** A request with the channel's bot token. */
  request(channel: ChannelAccess, signal: AbortSignal): PlatformRequest {
    return { headers: { authorization: `Bearer ${channel.secrets.bot_token ?? ''}` }, signal, timeoutMs: this.options.timeoutMs };
  }

  /** One Web API method, JSON or (a `URLSearchParams` body) a form; `{ok: true, …}` is its answer. */
  async call(channel: ChannelAccess, method: string, body: Obj | URLSearchParams, signal: AbortSignal): Promise<{ ok: true; answer: Obj } | Extract<SendResult, { ok: false }>> {
    const url = `${this.options.apiUrl}/${method}`;
    const request = this.request(channel, signal);
    const outcome =
      body instanceof URLSearchParams ? await postForm(url, body, request) : await postJson(url, body, { ...request, headers: { ...request.headers, 'content-type': 'application/json; charset=utf-8' } });
    const answer = obj(outcome.answer?.body);
    if (outcome.ok && answer?.ok === true) return { ok: true, answer };
    // Slack answers most refusals 200 with `{"ok": false, "error": "<code>"}`; a rate limit is 429 `ratelimited` with Retry-After.
    const code = typeof answer?.error === 'string' ? cutChars(answer.error, 100) : undefined;
    const retryAfter = outcome.answer?.retryAfterSeconds;
    return {
      ok: false,
      retryable: outcome.ok ? code === 'ratelimited' : outcome.retryable,
      ...(!outcome.ok && outcome.uncertain && { uncertain: true as const }),
      error: code ? `Slack answered ${code}` : outcome.ok ? 'Slack answered without ok' : outcome.error,
      ...(retryAfter !== undefined && { retryAfterMs: retryAfter * 1000 }),
    };
  }
}

/** The interaction a form body carries (`payload=<json>`); 400 when it is no such form. */
function formPayload(rawBody: Uint8Array): Obj {
  const text = decodeUtf8(rawBody);
  const payload = text === null ? null : new URLSearchParams(text).get('payload');
  if (payload === null) throw new ServiceError('invalid_json', 'A Slack request is JSON or a form with a payload field.');
  const parsed = parseJsonText(payload);
  const value = parsed.ok ? obj(parsed.value) : undefined;
  if (!value) throw new ServiceError('invalid_json', 'The payload field is not JSON Slack sends.', { param: 'payload' });
  return value;
}

/** A person's message (not a bot's, not this app's own, not an edit or a join) as an event. */
function messageEvent(body: Obj): InboundEvent | undefined {
  const event = obj(body.event);
  const eventId = str(body.event_id);
  if (!event || !eventId || event.type !== 'message') return undefined;
  const subtype = str(event.subtype);
  if ((subtype && !PERSON_SUBTYPES.has(subtype)) || event.bot_id !== undefined || event.bot_profile !== undefined) return undefined;
  const user = str(event.user);
  const channel = str(event.channel);
  const ts = str(event.ts);
  const ownUsers = arr(body.authorizations).filter((a) => obj(a)?.is_bot === true).map((a) => str(obj(a)?.user_id));
  if (!user || !channel || !ts || ownUsers.includes(user)) return undefined;
  const text = plainText(str(event.text) ?? '');
  const files = arr(event.files).flatMap((value) => {
    const file = obj(value);
    const id = str(file?.id);
    const url = str(file?.url_private_download) ?? str(file?.url_private);
    const size = Number(file?.size);
    // a file the workspace's plan hides (`hidden_by_limit`) or one of another workspace has no URL: it cannot be read
    return id && url ? [{ kind: str(file?.filetype) ?? 'file', id, url, ...(str(file?.name) && { name: str(file?.name) }), ...(Number.isSafeInteger(size) && { size }) }] : [];
  });
  if (!text.trim() && !files.length) return undefined;
  return { externalMessageId: eventId, externalConversationId: slackChat(channel, str(event.thread_ts) ?? ts), user: { id: user }, text, files };
}

/** A press of one of the reply's buttons: its value is the person's next message, in the reply's thread. */
function pressEvents(payload: Obj): InboundEvent[] {
  if (payload.type !== 'block_actions') return [];
  const action = obj(arr(payload.actions).find((a) => obj(a)?.type === 'button'));
  const message = obj(payload.message);
  const container = obj(payload.container);
  const channel = str(obj(payload.channel)?.id) ?? str(container?.channel_id);
  const root = str(message?.thread_ts) ?? str(container?.thread_ts) ?? str(message?.ts) ?? str(container?.message_ts);
  const user = obj(payload.user);
  const text = str(action?.value) ?? str(obj(action?.text)?.text);
  const id = str(payload.trigger_id) ?? str(action?.action_ts);
  if (!channel || !root || !text?.trim() || !id || !str(user?.id)) return [];
  return [{ externalMessageId: `press:${id}`, externalConversationId: slackChat(channel, root), user: { id: str(user!.id)!, name: str(user!.name) }, text, files: [] }];
}

/**
 * Slack's message text as a person typed it: its three escapes read back, mentions and links as
 * their labels (`<@U1|ada>` → `@ada`, `<https://x|site>` → `site (https://x)`).
 */
export function plainText(mrkdwn: string): string {
  return mrkdwn
    .replace(/<([^<>|]*)(?:\|([^<>]*))?>/g, (_, target: string, label: string | undefined) => {
      if (target[0] === '@' || target[0] === '#') return label ? `${target[0]}${label.replace(/^[@#]/, '')}` : target;
      if (target[0] === '!') return label ?? `@${target.slice(1).split('^')[0]}`; // <!here>, <!subteam^S1|@team>
      return label && label !== target ? `${label} (${target})` : target;
    })
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}
