/** English: the inbox and what it uses (reply files, canned replies), conversations, team and account. */
import type { Message } from '../catalog.js';

export const support = {
  'files.toSend': 'Files to send',
  'files.toAttach': 'Files to attach',
  'files.attach': 'Attach files',
  'files.ready': 'Ready to send',
  'files.uploading': 'Uploading {name}',
  'files.remove': 'Remove {name}',
  'files.tooMany': { one: 'A reply carries at most {max} files; {count} was left out.', other: 'A reply carries at most {max} files; {count} were left out.' },
  'files.notRemoved': 'Could not remove it: {error}',
} as const satisfies Record<string, Message>;
