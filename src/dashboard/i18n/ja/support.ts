/** Japanese: the inbox, conversations, team and account (en/support.ts). */
import type { Translation } from '../catalog.js';
import type { support as en } from '../en/support.js';

export const support: Translation<typeof en> = {
  'files.toSend': '送信するファイル',
  'files.toAttach': '添付するファイル',
  'files.attach': 'ファイルを添付',
  'files.ready': '送信できます',
  'files.uploading': '{name} をアップロードしています',
  'files.remove': '{name} を削除',
  'files.tooMany': { other: '1 件の返信に添付できるファイルは最大 {max} 個です。{count} 個は追加されませんでした。' },
  'files.notRemoved': '削除できませんでした：{error}',
};
