/**
 * JSON Schemas (2020-12) of the bot endpoints. The same objects validate requests at the edge and
 * are referenced by the OpenAPI document, so the contract and the checks cannot drift apart.
 * `additionalProperties: false` everywhere: an unknown field answers `unknown_parameter`.
 */
import { schemas, type JsonSchema } from '../http/validate.ts';
import { attachmentIdsSchema, attachmentSettingsInputSchema, attachmentSettingsSchema } from '../attachments/schema.ts';
import { knowledgeScopeSchema } from '../knowledge/schema.ts';
import { visitorContextSchema } from '../conversations/visitor.ts';
import { LAUNCHER_ICONS } from '../../../src/client/bot-types.ts';

const shortText = (max: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });

/** `{name}` placeholders become classifier tokens, so entity names are identifiers. */
export const entityNameSchema: JsonSchema = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' };

export const intentSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'examples', 'responses'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9_.-]{1,64}$' },
    examples: { type: 'array', minItems: 1, maxItems: 500, items: shortText(500) },
    responses: { type: 'array', minItems: 1, maxItems: 50, items: shortText(4000) },
    suggestions: { type: 'array', maxItems: 10, items: shortText(100) },
  },
};

/**
 * One flat object with `if/then` per `type` (not `oneOf`): a `oneOf` would report errors from the
 * branch the caller did not mean, and an unknown field must still surface as `unknown_parameter`.
 */
export const entityDefinitionSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type'],
  properties: {
    name: entityNameSchema,
    type: { enum: ['list', 'regex'] },
    values: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['value'],
        properties: {
          value: shortText(100),
          synonyms: { type: 'array', maxItems: 50, items: shortText(100) },
        },
      },
    },
    pattern: shortText(200),
  },
  allOf: [
    {
      if: { properties: { type: { const: 'list' } } },
      then: { required: ['values'], not: { required: ['pattern'] } },
    },
    {
      if: { properties: { type: { const: 'regex' } } },
      then: { required: ['pattern'], not: { required: ['values'] } },
    },
  ],
};

/** Training data of a bot (agents reuse it). */
export const trainingSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['intents'],
  properties: {
    intents: { type: 'array', maxItems: 500, items: intentSchema },
    entities: { type: 'array', maxItems: 100, items: entityDefinitionSchema },
    fallback: {
      type: 'object',
      additionalProperties: false,
      properties: {
        threshold: { type: 'number', minimum: 0, maximum: 1 },
        responses: { type: 'array', maxItems: 50, items: shortText(4000) },
      },
    },
  },
};

export const channelSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { enum: ['website', 'mobile', 'messaging'] },
    /** website only: browser origins allowed to call this bot; empty: any. */
    allowed_origins: {
      type: 'array',
      maxItems: 50,
      items: { type: 'string', maxLength: 200, pattern: '^https?://[^/?#\\s]+$' },
    },
    /** mobile / messaging only: a label. */
    name: shortText(100),
  },
  allOf: [
    {
      if: { properties: { type: { const: 'website' } } },
      then: { required: ['allowed_origins'], not: { required: ['name'] } },
      else: { not: { required: ['allowed_origins'] } },
    },
  ],
};

/**
 * How the chat widget looks for this bot (the dashboard's Appearance section). Each field is the
 * snake_case name of the widget attribute it fills (`bot_name` → `bot-name`), which the widget
 * applies unless the page set that attribute itself. The avatar and the quick replies are the
 * bot's own `avatar_url` and `quick_replies`, not repeated here.
 */
export const appearanceSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    color: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$', description: 'The accent colour, `#rrggbb`: the launcher, the Send button, the visitor\'s bubbles.' },
    position: { enum: ['bottom-right', 'bottom-left'], description: 'The launcher\'s corner. Default: `bottom-right`.' },
    launcher_icon: {
      type: 'string',
      maxLength: 2048,
      // a built-in icon's name, or an image only over https (the page may be https; never javascript: and friends)
      pattern: `^(${LAUNCHER_ICONS.join('|')}|https://[^\\s]+)$`,
      description: `The launcher's icon: a built-in one (${LAUNCHER_ICONS.map((name) => `\`${name}\``).join(', ')}) or an https image URL up to 2,048 characters.`,
    },
    bot_name: { ...shortText(60), description: 'The name the widget shows (its header, what screen readers call the replies). Default: the bot\'s `name`.' },
    welcome_message: { ...shortText(500), description: 'The first bubble of an empty conversation, never sent. Default: a localised greeting.' },
  },
};

const botFields = {
  name: shortText(100),
  description: { type: 'string', maxLength: 1000 },
  language: schemas.language,
  training: trainingSchema,
  quick_replies: { type: 'array', maxItems: 10, items: shortText(100) },
  channels: { type: 'array', maxItems: 10, items: channelSchema },
  knowledge: botKnowledgeSchema(),
  avatar_url: {
    type: ['string', 'null'],
    maxLength: 100_000,
    // Only what an <img> may safely load: a web URL or an inline image (never javascript: and friends).
    pattern: '^(https?://[^\\s]+|data:image/[A-Za-z0-9.+-]+[;,][^\\s]*)$',
    description: 'The avatar the chat widget shows for the bot: an http(s) URL or a `data:image/…` URL. `null`: none.',
  },
  attachments: attachmentSettingsInputSchema,
  appearance: { ...appearanceSchema, description: 'How the chat widget looks; replaces the whole appearance (`{}`: the widget\'s defaults).' },
} satisfies Record<string, JsonSchema>;

export const createBotSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: botFields,
};

export const updateBotSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: botFields,
};

export const botMessageSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['message', 'user_id'],
  properties: {
    message: { type: 'string', maxLength: 4000, description: '1–4,000 characters; may be empty when `attachments` names a file.' },
    user_id: schemas.userId,
    stream: { type: 'boolean' },
    attachments: attachmentIdsSchema,
    visitor: visitorContextSchema,
  },
};

/** `GET /v1/bots`: newest first. */
export const listBotsQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: schemas.limit(200, 50), cursor: schemas.cursor },
};

/**
 * An agent's knowledge scope, or null for none (a bot's default: it may answer anonymous widget
 * visitors, so no entry reaches them unless the owner chose it).
 */
function botKnowledgeSchema(): JsonSchema {
  return {
    ...knowledgeScopeSchema,
    type: ['object', 'null'],
    description:
      'Which knowledge entries may ground the bot\'s answers: `{"tags": ["docs"]}` those tagged `docs`, `{"tags": []}` all. ' +
      '`null` (the default): none. Chat through a widget token answers from exactly this scope.',
  };
}

/** The `Bot` resource as returned (for the OpenAPI document and contract tests). */
export const botSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'description', 'language', 'status', 'training', 'quick_replies', 'channels', 'knowledge', 'avatar_url', 'attachments', 'appearance', 'created_at', 'updated_at', 'trained_at'],
  properties: {
    id: schemas.id('bot'),
    name: { type: 'string' },
    description: { type: 'string' },
    language: { type: 'string' },
    status: { enum: ['untrained', 'training', 'ready', 'failed'] },
    training: trainingSchema,
    quick_replies: { type: 'array', items: { type: 'string' } },
    channels: { type: 'array', items: channelSchema },
    knowledge: botKnowledgeSchema(),
    avatar_url: { type: ['string', 'null'], description: 'The avatar the chat widget shows for the bot; `null`: none.' },
    attachments: attachmentSettingsSchema,
    appearance: { ...appearanceSchema, description: 'How the chat widget looks; only the fields set (`{}`: the widget\'s defaults).' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    trained_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

const share = { type: 'number', minimum: 0, maximum: 1 } as const;

/** `IntentQuality`: `GET /v1/bots/{id}/quality` and `/v1/agents/{id}/quality` (OpenAPI, contract tests). */
export const intentQualitySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['folds', 'examples', 'accuracy', 'threshold', 'intents', 'confused_pairs', 'suspect_examples'],
  description: 'k-fold cross-validation of the trained model on its own examples, computed at each training.',
  properties: {
    folds: { type: 'integer' },
    examples: { type: 'integer' },
    accuracy: { ...share, description: 'Share of examples classified as their own intent by a model that did not see them.' },
    threshold: { ...share, description: 'The calibrated fallback threshold, used unless `training.fallback.threshold` is set.' },
    intents: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['intent', 'examples', 'accuracy'], properties: { intent: { type: 'string' }, examples: { type: 'integer' }, accuracy: share } },
    },
    confused_pairs: {
      type: 'array',
      description: 'The most frequent confusions, most first.',
      items: { type: 'object', additionalProperties: false, required: ['intent', 'predicted', 'count'], properties: { intent: { type: 'string' }, predicted: { type: 'string' }, count: { type: 'integer' } } },
    },
    suspect_examples: {
      type: 'array',
      description: 'Examples another intent claims with high confidence: perhaps under the wrong intent.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['intent', 'example', 'predicted', 'confidence'],
        properties: { intent: { type: 'string' }, example: { type: 'string' }, predicted: { type: 'string' }, confidence: share },
      },
    },
  },
};

/** `POST /v1/bots/{id}/classify`: a question to try on the bot's model. */
export const classifyRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: { text: { type: 'string', minLength: 1, maxLength: 4000, description: 'The question, 1–4,000 characters.' } },
};

/** `IntentClassification`: the answer of `POST /v1/bots/{id}/classify`. */
export const intentClassificationSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['intents', 'fallback', 'threshold'],
  properties: {
    intents: {
      type: 'array',
      maxItems: 3,
      description: 'The most probable intents, most first; `confidence` is a calibrated probability.',
      items: { type: 'object', additionalProperties: false, required: ['name', 'confidence'], properties: { name: { type: 'string' }, confidence: share } },
    },
    fallback: { type: 'boolean', description: 'True when a message with this text would get no intent answer (the fallback, or knowledge).' },
    threshold: { ...share, description: 'The threshold in force: `training.fallback.threshold`, else the calibrated one.' },
  },
};
