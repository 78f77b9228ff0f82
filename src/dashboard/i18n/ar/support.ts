/** Arabic: the inbox, conversations, team and account (en/support.ts). */
import type { Translation } from '../catalog.js';
import type { support as en } from '../en/support.js';

export const support: Translation<typeof en> = {
  'files.toSend': 'الملفات المراد إرسالها',
  'files.toAttach': 'الملفات المراد إرفاقها',
  'files.attach': 'إرفاق ملفات',
  'files.ready': 'جاهز للإرسال',
  'files.uploading': 'جارٍ رفع {name}',
  'files.remove': 'إزالة {name}',
  'files.tooMany': { zero: 'يحمل الرد {max} ملفات على الأكثر.', one: 'يحمل الرد {max} ملفات على الأكثر؛ استُبعد ملف واحد.', two: 'يحمل الرد {max} ملفات على الأكثر؛ استُبعد ملفان.', few: 'يحمل الرد {max} ملفات على الأكثر؛ استُبعدت {count} ملفات.', many: 'يحمل الرد {max} ملفات على الأكثر؛ استُبعد {count} ملفًا.', other: 'يحمل الرد {max} ملفات على الأكثر؛ استُبعد {count} ملف.' },
  'files.notRemoved': 'تعذّرت الإزالة: {error}',
};
