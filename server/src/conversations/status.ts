/**
 * Who answers a conversation: the bot (`bot`), nobody yet because a person is asked for
 * (`waiting`), a person (`with_person`), or nobody any more (`closed`). Human handoff
 * (handoff/service.ts) changes it; every turn reads it (a person's conversation is not answered by
 * the bot). On the wire the same values are `HandoffStatus`.
 */
import type { HandoffStatus } from '../../../src/client/types.ts';

export type ConversationStatus = HandoffStatus;

/** Which statuses each status may be changed to. `closed` is final: a new message starts a new conversation. */
const CHANGES: Record<ConversationStatus, readonly ConversationStatus[]> = {
  bot: ['waiting'],
  waiting: ['with_person', 'bot', 'closed'],
  with_person: ['bot', 'closed'],
  closed: [],
};

/** The statuses a conversation may have to become `to`. */
export function statusesBefore(to: ConversationStatus): ConversationStatus[] {
  return (Object.keys(CHANGES) as ConversationStatus[]).filter((status) => CHANGES[status].includes(to));
}

/** True while a person is asked for or has the conversation: the bot does not answer it. */
export function withPerson(status: ConversationStatus): boolean {
  return status === 'waiting' || status === 'with_person';
}
