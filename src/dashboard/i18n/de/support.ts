/** German: the inbox, conversations, team and account (en/support.ts). */
import type { Translation } from '../catalog.js';
import type { support as en } from '../en/support.js';

export const support: Translation<typeof en> = {
  'files.toSend': 'Zu sendende Dateien',
  'files.toAttach': 'Anzuhängende Dateien',
  'files.attach': 'Dateien anhängen',
  'files.ready': 'Bereit zum Senden',
  'files.uploading': '{name} wird hochgeladen',
  'files.remove': '{name} entfernen',
  'files.tooMany': { one: 'Eine Antwort enthält höchstens {max} Dateien; {count} wurde weggelassen.', other: 'Eine Antwort enthält höchstens {max} Dateien; {count} wurden weggelassen.' },
  'files.notRemoved': 'Konnte nicht entfernt werden: {error}',
};
