/**
 * One round trip to the service for one user message, whole or streamed: the bot endpoint when the
 * widget names a bot, else the chat endpoint — both answer a turn alike and stream the same events.
 * It knows the wire and nothing of the widget's state; `ChatController` decides what the answer
 * does to the transcript.
 */
import type { ApiResult, BotReply, ChatReply, Citation, HandoffState, Message, RequestOptions, TurnStreamEvent } from '../../client/index.js';
import { loadAddon, type Addon } from '../addons/loader.js';
import type { ChatConfig } from '../core/chat-config.js';
import type { TranscriptMessage } from '../core/events.js';
import { chatMessages, fromServer, toSources } from '../conversation/transcript.js';
import type { WidgetClient } from '../connection/widget-client.js';
import { visitorContext } from './visitor-context.js';

export interface ReplyRequest {
  client: WidgetClient;
  config: ChatConfig;
  userId: string;
  conversationId: string | null;
  /** The transcript as it is now; `message` is in it. */
  messages: readonly TranscriptMessage[];
  message: TranscriptMessage;
  signal: AbortSignal;
  /** False once a reset, identity switch or disconnect has moved on: the answer is dropped. */
  isCurrent: () => boolean;
  /** Streaming only: the reply's text so far, after each delta. */
  onText: (text: string) => void;
  /** Streaming only: the conversation the service announced (`meta`), for a reply that is stopped. */
  onConversation: (conversationId: string) => void;
}

export interface ReplyOutcome {
  conversationId: string;
  /** Null when a person is involved (human handoff): the bot did not answer; the person will. */
  reply: TranscriptMessage | null;
  /** What the server stored for the user's message (the bot endpoint says, and a held turn). */
  stored?: { serverId: string; time: string };
  /** The conversation's handoff state after the turn: every reply of a bot with handoff on has it. */
  handoff?: HandoffState;
}

/** One endpoint's way to ask for a turn, whole or streamed (with the stream add-on), and to read its reply. */
interface Endpoint<Reply> {
  send(options: RequestOptions): Promise<ApiResult<Reply>>;
  stream(addon: Addon<'stream'>, options: RequestOptions): AsyncIterable<TurnStreamEvent<Reply>>;
  outcome(reply: Reply): ReplyOutcome;
}

/** The bot endpoint when the widget names a bot, else the chat endpoint: both answer and stream alike. */
function endpointFor(r: ReplyRequest): Endpoint<BotReply> | Endpoint<ChatReply> {
  const { client, config } = r;
  // the files by id (uploaded before the message was sent); the same on every attempt
  const attachments = r.message.attachments?.map((file) => file.id);
  const visitor = visitorContext(r.message.id, config);
  if (config.botId) {
    const botId = config.botId;
    const body = { message: r.message.content, user_id: r.userId, attachments, visitor };
    return {
      send: (options) => client.bots.sendMessage(botId, body, options),
      stream: (addon, options) => addon.streamBotMessage(client.http, botId, body, options),
      outcome: (data: BotReply) => outcomeOf(data, data.message.citations ?? [], data.user_message),
    };
  }
  const body = { messages: chatMessages(r.messages, r.message), conversation_id: r.conversationId ?? undefined, user_id: r.userId, attachments, visitor };
  return {
    send: (options) => client.chat.send(body, options),
    stream: (addon, options) => addon.streamChat(client.http, body, options),
    outcome: (data: ChatReply) => outcomeOf(data, data.citations),
  };
}

/** A turn's outcome. A held turn (a person is involved) has no reply: its `message` is the user's own. */
function outcomeOf(data: BotReply | ChatReply, citations: readonly Citation[], user?: Message): ReplyOutcome {
  const held = data.handoff?.held;
  const stored = held ? data.message : user;
  return {
    conversationId: data.conversation_id,
    reply: held ? null : withCitations(fromServer(data.message, data.suggestions), citations),
    stored: stored && { serverId: stored.id, time: stored.created_at },
    handoff: data.handoff,
  };
}

function withCitations(reply: TranscriptMessage, citations: readonly Citation[]): TranscriptMessage {
  if (citations.length) reply.citations = toSources(citations);
  return reply;
}

/** The assistant's reply, or `null` when `isCurrent()` turned false on the way. Throws on failure. */
export function requestReply(r: ReplyRequest): Promise<ReplyOutcome | null> {
  return answer(r, endpointFor(r) as Endpoint<BotReply | ChatReply>);
}

async function answer<Reply>(r: ReplyRequest, endpoint: Endpoint<Reply>): Promise<ReplyOutcome | null> {
  const options: RequestOptions = {
    signal: r.signal,
    idempotencyKey: r.message.id, // every attempt of this message: the server stores it once
    maxRetryDelayMs: 0,
    ...(r.config.timeout > 0 && { timeoutMs: r.config.timeout }),
  };
  let final: Reply | null = null;
  // a page without the stream add-on (a site that copied the one script alone) gets the whole reply
  const addon = r.config.stream && (await loadAddon('stream').catch(() => null));
  if (addon) {
    let streamed = '';
    for await (const event of endpoint.stream(addon, options)) {
      if (!r.isCurrent()) return null;
      // `meta` names the conversation too, but it is adopted only with the final message (or a
      // stop, whose turn the service stores): a retry after a broken stream must send the very
      // body the Idempotency-Key was used with
      if (event.type === 'done') final = event.data.data;
      else if (event.type === 'meta') r.onConversation(event.data.conversation_id);
      else r.onText((streamed += event.data.text));
    }
  } else {
    final = (await endpoint.send(options)).data;
  }
  if (!r.isCurrent()) return null;
  if (!final) throw new Error('The reply ended without its final message.');
  return endpoint.outcome(final);
}
