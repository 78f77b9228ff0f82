/**
 * A bot's attachment settings, stored in `bots.attachments` (migration 017) as the fields set; the
 * defaults fill in the rest. Off by default: a bot takes files only once its owner says so.
 */
import type { AttachmentSettings, AttachmentType } from '../../../src/client/types.ts';
import { invalid } from '../http/errors.ts';
import { ACCEPTED_TYPES } from './content-type.ts';

export const DEFAULT_ATTACHMENT_SETTINGS: Readonly<AttachmentSettings> = Object.freeze({
  enabled: false,
  types: [...ACCEPTED_TYPES],
  max_file_bytes: 5 * 1024 * 1024,
  max_files: 3,
});

/** The settings of a bot row (`null`: never set). */
export function attachmentSettingsOf(stored: unknown): AttachmentSettings {
  const set = (stored ?? {}) as Partial<AttachmentSettings>;
  return { ...DEFAULT_ATTACHMENT_SETTINGS, types: [...DEFAULT_ATTACHMENT_SETTINGS.types], ...set };
}

/**
 * `current` changed by `input` (fields left out keep their value); a file limit above the service's
 * own (`maxBytes`) is refused rather than promised to visitors and then broken.
 */
export function changedSettings(current: unknown, input: Partial<AttachmentSettings>, maxBytes: number): AttachmentSettings {
  if (input.max_file_bytes !== undefined && input.max_file_bytes > maxBytes) {
    throw invalid('attachments.max_file_bytes', `attachments.max_file_bytes must be at most ${maxBytes} (the service's limit).`);
  }
  const next = { ...attachmentSettingsOf(current), ...input };
  // always listed in the canonical order, whatever order they were sent in
  next.types = ACCEPTED_TYPES.filter((type) => next.types.includes(type)) as AttachmentType[];
  return next;
}
