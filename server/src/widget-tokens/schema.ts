/** The one-snippet install's token route: what it takes and answers (validated here, documented from here). */
import type { JsonSchema } from '../http/validate.ts';
import { idPatternOf } from '../ids.ts';

/** `POST /v1/widget/tokens`: the bot, and the `anon_…` id the widget already holds, if any. */
export const widgetTokenRequestSchema: JsonSchema = {
  type: 'object',
  required: ['bot_id'],
  properties: {
    bot_id: { type: 'string', pattern: idPatternOf('bot'), description: 'The bot the page chats with (bot_…).' },
    user_id: {
      type: 'string',
      maxLength: 128,
      description: 'The `anon_…` id the widget got with an earlier token: reused, so the visitor keeps their history. Anything else gets a new id.',
    },
  },
};

/** The answer: the same shape as the token proxy's (src/proxy/mint.ts), so the widget reads either. */
export const widgetTokenSchema: JsonSchema = {
  type: 'object',
  required: ['token', 'expires_at', 'user_id', 'bot_id', 'api_base'],
  properties: {
    token: { type: 'string', description: 'A JWT (HS256) for `Authorization: Bearer` on the bot\'s widget routes, from this origin only.' },
    expires_at: { type: 'string', format: 'date-time' },
    user_id: { type: 'string', description: 'The visitor (`anon_…`).' },
    bot_id: { type: 'string' },
    api_base: { type: 'string', description: 'Where to send the calls: `/v1`, relative to the token URL.' },
  },
};

export const widgetTokenComponents: Record<string, JsonSchema> = {
  WidgetTokenRequest: widgetTokenRequestSchema,
  WidgetToken: widgetTokenSchema,
};
