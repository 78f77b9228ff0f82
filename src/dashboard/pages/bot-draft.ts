/**
 * The bot editor's form state and its translation to and from the service's `Bot`. Lists are edited
 * as text, one item per line, because that is how people paste example utterances; the form keeps
 * every field the service has (including channels and fallback settings it does not edit), so a
 * save never drops data the user did not touch.
 */
import type { Bot, Channel, CreateBotRequest, EntityDefinition, FallbackSettings, Intent, KnowledgeScope } from '../../client/index.js';
import { t } from '../i18n/i18n.js';
import type { ConfirmRequest } from '../ui/confirm-dialog.js';
import { splitLines, splitList } from '../ui/format.js';
import { APPEARANCE_FIELD_KEYS, appearanceDraftOf, appearanceRequestOf, newAppearanceDraft, type AppearanceDraft } from './bot-appearance.js';
import { ATTACHMENT_FIELD_KEYS, attachmentsDraftOf, attachmentsRequestOf, newAttachmentsDraft, type AttachmentsDraft } from './bot-attachments.js';

export interface IntentDraft {
  name: string;
  examples: string;
  responses: string;
  suggestions: string;
}

export interface EntityDraft {
  name: string;
  type: 'list' | 'regex';
  /** One value per line: `value: synonym, synonym`. */
  values: string;
  pattern: string;
}

export type KnowledgeMode = 'none' | 'all' | 'tags';

export interface BotDraft {
  name: string;
  description: string;
  language: string;
  intents: IntentDraft[];
  entities: EntityDraft[];
  quickReplies: string;
  origins: string;
  knowledgeMode: KnowledgeMode;
  knowledgeTags: string;
  attachments: AttachmentsDraft;
  /** How the widget looks (with the avatar); the quick replies are `quickReplies`. */
  appearance: AppearanceDraft;
  /** Kept as they were: the form does not edit them. */
  fallback: FallbackSettings | undefined;
  knowledgeMinRelevance: number | undefined;
  otherChannels: Channel[];
  /** A website channel with no origins (any origin) is kept as such, not dropped. */
  hadWebsiteChannel: boolean;
}

export const emptyIntent = (): IntentDraft => ({ name: '', examples: '', responses: '', suggestions: '' });
export const emptyEntity = (): EntityDraft => ({ name: '', type: 'list', values: '', pattern: '' });

export function newBotDraft(): BotDraft {
  return {
    name: '',
    description: '',
    language: 'en',
    intents: [emptyIntent()],
    entities: [],
    quickReplies: '',
    origins: '',
    knowledgeMode: 'none',
    knowledgeTags: '',
    attachments: newAttachmentsDraft(),
    appearance: newAppearanceDraft(),
    fallback: undefined,
    knowledgeMinRelevance: undefined,
    otherChannels: [],
    hadWebsiteChannel: false,
  };
}

const lines = (items: readonly string[] | undefined) => (items ?? []).join('\n');

export function intentDraftOf(intent: Intent): IntentDraft {
  return { name: intent.name, examples: lines(intent.examples), responses: lines(intent.responses), suggestions: lines(intent.suggestions) };
}

/** The intent as the service takes it (what the editor saves, exports and merges imports into). */
export function intentOf(i: IntentDraft): Intent {
  const suggestions = splitLines(i.suggestions);
  return { name: i.name.trim(), examples: splitLines(i.examples), responses: splitLines(i.responses), ...(suggestions.length ? { suggestions } : {}) };
}

export function draftOf(bot: Bot): BotDraft {
  const website = bot.channels.find((c) => c.type === 'website');
  const knowledge = bot.knowledge;
  return {
    name: bot.name,
    description: bot.description,
    language: bot.language,
    intents: bot.training.intents.map(intentDraftOf),
    entities: (bot.training.entities ?? []).map((e) =>
      e.type === 'regex'
        ? { name: e.name, type: 'regex', values: '', pattern: e.pattern }
        : { name: e.name, type: 'list', pattern: '', values: e.values.map((v) => (v.synonyms?.length ? `${v.value}: ${v.synonyms.join(', ')}` : v.value)).join('\n') },
    ),
    quickReplies: lines(bot.quick_replies),
    origins: website && 'allowed_origins' in website ? lines(website.allowed_origins) : '',
    knowledgeMode: knowledge === null ? 'none' : knowledge.tags?.length ? 'tags' : 'all',
    knowledgeTags: (knowledge?.tags ?? []).join(', '),
    attachments: attachmentsDraftOf(bot.attachments),
    appearance: appearanceDraftOf(bot),
    fallback: bot.training.fallback,
    knowledgeMinRelevance: knowledge?.min_relevance,
    otherChannels: bot.channels.filter((c) => c.type !== 'website'),
    hadWebsiteChannel: website !== undefined,
  };
}

function entityOf(e: EntityDraft): EntityDefinition {
  if (e.type === 'regex') return { name: e.name.trim(), type: 'regex', pattern: e.pattern };
  return {
    name: e.name.trim(),
    type: 'list',
    values: splitLines(e.values).map((line) => {
      const colon = line.indexOf(':');
      if (colon < 0) return { value: line };
      const synonyms = splitList(line.slice(colon + 1));
      return { value: line.slice(0, colon).trim(), ...(synonyms.length ? { synonyms } : {}) };
    }),
  };
}

function knowledgeOf(d: BotDraft): KnowledgeScope | null {
  if (d.knowledgeMode === 'none') return null;
  const tags = d.knowledgeMode === 'tags' ? splitList(d.knowledgeTags) : [];
  return d.knowledgeMinRelevance === undefined ? { tags } : { tags, min_relevance: d.knowledgeMinRelevance };
}

/**
 * The request body. The website channel comes first, so a `channels.0…` error is the origins
 * field's; the service validates everything else and reports it at the field (see `fieldKeys`).
 */
export function requestOf(d: BotDraft): CreateBotRequest {
  const origins = splitLines(d.origins);
  return {
    name: d.name,
    description: d.description,
    language: d.language,
    training: {
      intents: d.intents.map(intentOf),
      ...(d.entities.length ? { entities: d.entities.map(entityOf) } : {}),
      ...(d.fallback ? { fallback: d.fallback } : {}),
    },
    quick_replies: splitLines(d.quickReplies),
    channels: [...(origins.length || d.hadWebsiteChannel ? [{ type: 'website' as const, allowed_origins: origins }] : []), ...d.otherChannels],
    knowledge: knowledgeOf(d),
    attachments: attachmentsRequestOf(d.attachments),
    ...appearanceRequestOf(d.appearance),
  };
}

/** Every field an error can be shown at, as the dotted body paths the service reports. */
export function fieldKeys(d: BotDraft): string[] {
  return [
    'name',
    'description',
    'language',
    'training',
    'training.intents',
    'training.entities',
    'quick_replies',
    'channels',
    'knowledge',
    ...ATTACHMENT_FIELD_KEYS,
    ...APPEARANCE_FIELD_KEYS,
    ...d.intents.flatMap((_, i) => ['name', 'examples', 'responses', 'suggestions'].map((f) => `training.intents.${i}.${f}`)),
    ...d.entities.flatMap((_, i) => ['name', 'values', 'pattern', 'type'].map((f) => `training.entities.${i}.${f}`)),
    // A whole entity refused (say, a pattern the service will not run) is shown at its pattern or values.
    ...d.entities.map((_, i) => `training.entities.${i}`),
  ];
}

/** The question before a bot is deleted, from its list row or its own page: it names what goes with it. */
export function deleteBotQuestion(bot: Pick<Bot, 'name'>): ConfirmRequest {
  return {
    title: t('bots.deleteThisBot'),
    message: t('bots.deleteMessage', { name: bot.name }),
    confirmLabel: t('bots.deleteBot'),
  };
}
