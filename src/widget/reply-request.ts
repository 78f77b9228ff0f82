/**
 * One round trip to the service for one user message: the bot endpoint, or the chat endpoint
 * (whole or streamed). It knows the wire and nothing of the widget's state; `ChatController`
 * decides what the answer does to the transcript.
 */
import type { AiChatClient, ChatReply, RequestOptions } from '../client/index.js';
import type { ChatConfig } from './chat-config.js';
import type { TranscriptMessage } from './events.js';
import { chatMessages, fromServer } from './transcript.js';

export interface ReplyRequest {
  client: AiChatClient;
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
}

export interface ReplyOutcome {
  conversationId: string;
  reply: TranscriptMessage;
  /** What the server stored for the user's message (bot endpoint). */
  stored?: { serverId: string; time: string };
}

/** The assistant's reply, or `null` when `isCurrent()` turned false on the way. Throws on failure. */
export async function requestReply(r: ReplyRequest): Promise<ReplyOutcome | null> {
  const { client, config } = r;
  const options: RequestOptions = {
    signal: r.signal,
    idempotencyKey: r.message.id, // every attempt of this message: the server stores it once
    maxRetryDelayMs: 0,
    ...(config.timeout > 0 && { timeoutMs: config.timeout }),
  };
  if (config.botId) {
    const { data } = await client.bots.sendMessage(config.botId, { message: r.message.content, user_id: r.userId }, options);
    if (!r.isCurrent()) return null;
    return {
      conversationId: data.conversation_id,
      reply: fromServer(data.message, data.suggestions),
      stored: { serverId: data.user_message.id, time: data.user_message.created_at },
    };
  }
  const request = {
    messages: chatMessages(r.messages, r.message),
    conversation_id: r.conversationId ?? undefined,
    user_id: r.userId,
  };
  let final: ChatReply | null = null;
  if (config.stream) {
    let streamed = '';
    for await (const event of client.chat.stream(request, options)) {
      if (!r.isCurrent()) return null;
      // `meta` names the conversation too, but it is adopted only with the final message: a
      // retry after a broken stream must send the very body the Idempotency-Key was used with
      if (event.type === 'done') final = event.data.data;
      else if (event.type !== 'meta') r.onText((streamed += event.data.text));
    }
  } else {
    final = (await client.chat.send(request, options)).data;
  }
  if (!r.isCurrent()) return null;
  if (!final) throw new Error('The reply ended without its final message.');
  const reply = fromServer(final.message, final.suggestions);
  if (final.citations.length) reply.citations = final.citations.map(({ title, source }) => ({ title, source }));
  return { conversationId: final.conversation_id, reply };
}
