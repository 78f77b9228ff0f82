/** A reply the user stopped, as the transcript keeps it (a pure helper of `ChatController`). */
import { randomId } from '../core/error-detail.js';
import type { TranscriptMessage } from '../core/events.js';

/** A reply as it streams in: the shown part (`partial`), the text so far, the conversation announced. */
export interface ReplyStream {
  partial: TranscriptMessage | null;
  text: string;
  conversationId?: string;
}

/**
 * The transcript with the user's message `messageId` delivered (the service stores the turn) and
 * the reply's arrived part kept, marked `stopped`: in the streamed part's place, else right after
 * the user's message (nothing had arrived: an empty stopped reply, as the service stores it).
 */
export function withStoppedReply(
  transcript: readonly TranscriptMessage[],
  messageId: string,
  stream: ReplyStream,
): { transcript: TranscriptMessage[]; reply: TranscriptMessage } {
  const reply: TranscriptMessage = {
    id: stream.partial?.id ?? randomId('m'),
    role: 'assistant',
    content: stream.text,
    time: new Date().toISOString(),
    status: 'sent',
    stopped: true,
  };
  const delivered = transcript.map((m) => (m.id === messageId ? { ...m, status: 'sent' as const } : m));
  const at = delivered.findIndex((m) => m.id === (stream.partial?.id ?? messageId));
  const start = stream.partial ? at : at + 1;
  return { transcript: [...delivered.slice(0, start), reply, ...delivered.slice(at + 1)], reply };
}
