/** How the inbox reads a transcript: who wrote each message, their order, and files dragged in. */
import type { Message } from '../../client/index.js';
import { t } from '../i18n/i18n.js';

/** Whether a drag carries files (not text being moved inside the page). */
export const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;

export const whoOf = (m: Message) =>
  m.role === 'user'
    ? t('conv.visitor')
    : m.role === 'operator'
      ? (m.author?.name ?? t('conv.operator'))
      : m.role === 'note'
        ? t('inbox.noteBy', { name: m.author?.name ?? t('inbox.aTeammate') })
        : m.role === 'assistant'
          ? t('conv.bot')
          : t('conv.system');

/** Messages and notes in the order they were written. */
export const byTime = (messages: Message[]) => [...messages].sort((a, b) => a.created_at.localeCompare(b.created_at));
