/**
 * A conversation's labels: free text the team puts on it (≤ `MAX_LABELS`, each ≤ 40 characters),
 * changed by adding and removing some at once, so two operators labelling one conversation at the
 * same time both keep theirs (the row is locked while the new set is made).
 */
import type { Kysely } from 'kysely';
import type { ConversationLabels, LabelsUpdate } from '../../../src/client/types.ts';
import type { Database } from '../db/schema.ts';
import { invalid, notFound } from '../http/errors.ts';

export const MAX_LABELS = 20;
export const MAX_LABEL_LENGTH = 40;

export async function updateLabels(db: Kysely<Database>, accountId: string, conversationId: string, update: LabelsUpdate): Promise<ConversationLabels> {
  const removed = new Set((update.remove ?? []).map((label) => label.trim()));
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('conversations').select('labels').where('account_id', '=', accountId).where('id', '=', conversationId).forUpdate().executeTakeFirst();
    if (!row) throw notFound('conversation_id', 'conversation');
    const labels = [...new Set([...row.labels, ...(update.add ?? []).map((label) => label.trim())])].filter((label) => !removed.has(label));
    if (labels.length > MAX_LABELS) throw invalid('add', `A conversation has at most ${MAX_LABELS} labels; remove one first.`);
    await trx.updateTable('conversations').set({ labels }).where('account_id', '=', accountId).where('id', '=', conversationId).execute();
    return { conversation_id: conversationId, labels };
  });
}
