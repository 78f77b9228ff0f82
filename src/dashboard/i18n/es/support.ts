/** Spanish: the inbox, conversations, team and account (en/support.ts). */
import type { Translation } from '../catalog.js';
import type { support as en } from '../en/support.js';

export const support: Translation<typeof en> = {
  'files.toSend': 'Archivos para enviar',
  'files.toAttach': 'Archivos para adjuntar',
  'files.attach': 'Adjuntar archivos',
  'files.ready': 'Listo para enviar',
  'files.uploading': 'Subiendo {name}',
  'files.remove': 'Quitar {name}',
  'files.tooMany': { one: 'Una respuesta lleva como máximo {max} archivos; se dejó fuera {count}.', many: 'Una respuesta lleva como máximo {max} archivos; se dejaron fuera {count}.', other: 'Una respuesta lleva como máximo {max} archivos; se dejaron fuera {count}.' },
  'files.notRemoved': 'No se pudo quitar: {error}',
};
