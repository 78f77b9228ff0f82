/** French: the inbox, conversations, team and account (en/support.ts). */
import type { Translation } from '../catalog.js';
import type { support as en } from '../en/support.js';

export const support: Translation<typeof en> = {
  'files.toSend': 'Fichiers à envoyer',
  'files.toAttach': 'Fichiers à joindre',
  'files.attach': 'Joindre des fichiers',
  'files.ready': 'Prêt à envoyer',
  'files.uploading': 'Envoi de {name}',
  'files.remove': 'Retirer {name}',
  'files.tooMany': { one: 'Une réponse contient {max} fichiers au maximum ; {count} a été laissé de côté.', many: 'Une réponse contient {max} fichiers au maximum ; {count} ont été laissés de côté.', other: 'Une réponse contient {max} fichiers au maximum ; {count} ont été laissés de côté.' },
  'files.notRemoved': 'Impossible de le retirer : {error}',
};
