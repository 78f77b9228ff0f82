/** A stored message as the API answers it. */
import type { Selectable } from 'kysely';
import type { Attachment, Citation, Message, ReplySource, Role } from '../../../src/client/types.ts';
import { iso } from '../db/json.ts';
import type { MessagesTable } from '../db/schema.ts';

export type MessageRow = Selectable<MessagesTable>;

export function toMessage(row: MessageRow): Message {
  const message: Message = {
    id: row.id,
    conversation_id: row.conversation_id,
    role: row.role as Role,
    content: row.content,
    created_at: iso(row.created_at),
  };
  if (row.role === 'assistant') {
    message.source = (row.source ?? 'fallback') as ReplySource;
    message.intent = row.intent;
    message.confidence = row.confidence;
    message.citations = (row.citations ?? []) as Citation[];
    message.suggestions = row.suggestions ?? [];
    if (row.stopped) message.stopped = true;
  }
  if (row.role === 'operator' || row.role === 'note') message.author = { id: row.author_id ?? '', name: row.author_name ?? 'Operator', avatar_url: row.author_avatar_url };
  if (row.attachments?.length) message.attachments = row.attachments as Attachment[];
  return message;
}
