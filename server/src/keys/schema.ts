/** JSON Schemas of the dashboard's API key endpoints. */
import type { JsonSchema } from '../http/validate.ts';

export const createKeySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['label'],
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 100 },
    /** `read_only`: GET and HEAD requests only; anything else answers 403 `insufficient_scope`. */
    scope: { type: 'string', enum: ['full', 'read_only'] },
    /** ISO 8601 date-time with a time zone, in the future. Omitted or null: the key never expires. */
    expires_at: {
      type: ['string', 'null'],
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$',
    },
  },
};

export interface CreateKeyInput {
  label: string;
  scope?: 'full' | 'read_only';
  expires_at?: string | null;
}
