/**
 * The bot editor's "Attachments" section: whether visitors may attach files, which
 * types, how large and how many. Its draft, its checks, its part of the request, and its fieldset
 * live here together so the bot editor stays one screen of code.
 *
 * Sizes are edited in MB (binary, as the service's defaults are: 5 MB is 5 MiB) because nobody
 * thinks of a file limit in bytes; the service's own limit is checked by the service, which names
 * `attachments.max_file_bytes`, so its message appears at the same field.
 */
import { html, nothing } from 'lit';
import { ATTACHMENT_TYPES as TYPES, MAX_ATTACHMENTS_PER_MESSAGE, type AttachmentSettings, type AttachmentType } from '../../client/index.js';
import type { FieldErrors } from '../ui/errors.js';
import { labels, t } from '../i18n/i18n.js';
import { field } from '../ui/field.js';

/** The names people know each type by (every type the service accepts has one). */
const TYPE_NAMES = labels<AttachmentType>({
  'image/png': 'bots.png',
  'image/jpeg': 'bots.jpeg',
  'image/gif': 'bots.gif',
  'image/webp': 'bots.webp',
  'application/pdf': 'bots.pdf',
  'text/plain': 'bots.plainText',
});

/** Every type the service accepts, in the service's order (`TYPE_NAMES` names each). */
export const ATTACHMENT_TYPES: readonly AttachmentType[] = TYPES;

const MB = 1024 * 1024;
/** The request schema's ceiling; a service may allow less, and says so at the field. */
const MAX_MB = 100;
const MAX_FILES = MAX_ATTACHMENTS_PER_MESSAGE;

export interface AttachmentsDraft {
  enabled: boolean;
  types: AttachmentType[];
  /** As typed, in MB. */
  maxFileMb: string;
  maxFiles: string;
  /** The stored limit, sent back unchanged while its MB text is untouched (no rounding drift). */
  savedBytes: number | null;
}

const mbText = (bytes: number) => String(Math.round((bytes / MB) * 100) / 100);

/** The service's defaults, for a new bot: off, every type, 5 MB, 3 files. */
export function newAttachmentsDraft(): AttachmentsDraft {
  return { enabled: false, types: [...ATTACHMENT_TYPES], maxFileMb: '5', maxFiles: '3', savedBytes: null };
}

export function attachmentsDraftOf(settings: AttachmentSettings): AttachmentsDraft {
  return { enabled: settings.enabled, types: [...settings.types], maxFileMb: mbText(settings.max_file_bytes), maxFiles: String(settings.max_files), savedBytes: settings.max_file_bytes };
}

const megabytes = (text: string) => Number(text.trim());

/** What the form can tell before saving; keys are the request's paths, as the service's errors are. */
export function attachmentsProblems(d: AttachmentsDraft): FieldErrors {
  const problems: FieldErrors = {};
  const mb = megabytes(d.maxFileMb);
  if (!d.maxFileMb.trim() || !Number.isFinite(mb) || Math.round(mb * MB) < 1) problems['attachments.max_file_bytes'] = t('bots.sizeProblem');
  else if (mb > MAX_MB) problems['attachments.max_file_bytes'] = t('bots.atMostMb', { max: MAX_MB });
  const files = Number(d.maxFiles.trim());
  if (!d.maxFiles.trim() || !Number.isInteger(files) || files < 1 || files > MAX_FILES) problems['attachments.max_files'] = t('bots.filesRange', { max: MAX_FILES });
  // on with no type allowed would show visitors an attach button that refuses every file
  if (d.enabled && d.types.length === 0) problems['attachments.types'] = t('bots.typesProblem');
  return problems;
}

/** The request's `attachments`, from a draft `attachmentsProblems` found nothing wrong with. */
export function attachmentsRequestOf(d: AttachmentsDraft): AttachmentSettings {
  const unchanged = d.savedBytes !== null && d.maxFileMb === mbText(d.savedBytes);
  return {
    enabled: d.enabled,
    types: d.types,
    max_file_bytes: unchanged ? d.savedBytes! : Math.round(megabytes(d.maxFileMb) * MB),
    max_files: Number(d.maxFiles.trim()),
  };
}

export const ATTACHMENT_FIELD_KEYS = ['attachments', 'attachments.enabled', 'attachments.types', 'attachments.max_file_bytes', 'attachments.max_files'];

/** The fieldset; `set` applies a change to the draft. */
export function attachmentsFieldset(d: AttachmentsDraft, errors: FieldErrors, set: (patch: Partial<AttachmentsDraft>) => void) {
  const typesError = errors['attachments.types'];
  // read from the boxes themselves: two clicks before a render must not undo each other
  const onTypes = (e: Event) => {
    const boxes = (e.target as HTMLElement).closest('fieldset')!.querySelectorAll<HTMLInputElement>('input[name="attachments.types"]');
    set({ types: [...boxes].filter((box) => box.checked).map((box) => box.value as AttachmentType) });
  };
  return html`<fieldset>
    <legend>${t('bots.attachments')}</legend>
    <p class="hint" id="attachments-hint">${t('bots.attachmentsHint')}</p>
    ${errors.attachments ? html`<p class="field-error" role="alert">${errors.attachments}</p>` : nothing}
    <label class="check">
      <input type="checkbox" name="attachments.enabled" aria-describedby="attachments-hint" .checked=${d.enabled} @change=${(e: Event) => set({ enabled: (e.target as HTMLInputElement).checked })} />
      ${t('bots.attachmentsOn')}
    </label>
    <fieldset class="item">
      <legend>${t('bots.allowedTypes')}</legend>
      ${typesError ? html`<p class="field-error" id="attachments-types-error">${typesError}</p>` : nothing}
      ${ATTACHMENT_TYPES.map(
        (type) => html`<label class="check">
          <input
            type="checkbox"
            name="attachments.types"
            value=${type}
            aria-invalid=${typesError ? 'true' : 'false'}
            aria-describedby=${typesError ? 'attachments-types-error' : nothing}
            .checked=${d.types.includes(type)}
            @change=${onTypes}
          />
          ${TYPE_NAMES[type]}
        </label>`,
      )}
    </fieldset>
    ${field({ name: 'attachments.max_file_bytes', label: t('bots.largestFile'), type: 'number', min: 0.01, step: 'any', value: d.maxFileMb, error: errors['attachments.max_file_bytes'], onInput: (maxFileMb) => set({ maxFileMb }) })}
    ${field({ name: 'attachments.max_files', label: t('bots.filesPerMessage'), hint: t('bots.filesHint', { max: MAX_FILES }), type: 'number', min: 1, max: MAX_FILES, step: 1, value: d.maxFiles, error: errors['attachments.max_files'], onInput: (maxFiles) => set({ maxFiles }) })}
  </fieldset>`;
}
