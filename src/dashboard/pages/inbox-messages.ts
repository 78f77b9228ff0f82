/** How the inbox reads a transcript: who wrote each message, their order, and files dragged in. */
import type { Message } from '../../client/index.js';

/** Whether a drag carries files (not text being moved inside the page). */
export const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

export const whoOf = (m: Message) =>
  m.role === 'user' ? 'Visitor' : m.role === 'operator' ? (m.author?.name ?? 'Operator') : m.role === 'note' ? `Note by ${m.author?.name ?? 'a teammate'}` : m.role === 'assistant' ? 'Bot' : 'System';

/** Messages and notes in the order they were written. */
export const byTime = (messages: Message[]) => [...messages].sort((a, b) => a.created_at.localeCompare(b.created_at));
