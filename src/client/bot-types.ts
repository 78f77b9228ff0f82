/**
 * Bots: their training data, settings and channels, and a turn with a bot
 * (`POST /v1/bots/{id}/messages`). Part of the v1 wire contract (types.ts).
 */
import type { AttachmentSettings } from './attachment-types.js';
import type { HandoffState } from './handoff-types.js';
import type { KnowledgeScope } from './knowledge-types.js';
import type { Entity, Message } from './message-types.js';
import type { VisitorContext } from './visitor-types.js';

/** Training data of a bot or agent. */
export interface TrainingData {
  intents: Intent[];
  entities?: EntityDefinition[];
  fallback?: FallbackSettings;
}

export interface Intent {
  /** `[a-z0-9_.-]`, 1–64 characters. */
  name: string;
  /** Example utterances; `{entity}` marks where an entity may stand. At least one. */
  examples: string[];
  /** Response templates; `{entity}` is replaced by the matched value. One is picked per reply. */
  responses: string[];
  /** Quick replies offered with this intent's answer. */
  suggestions?: string[];
}

export type EntityDefinition =
  | { name: string; type: 'list'; values: { value: string; synonyms?: string[] }[] }
  | { name: string; type: 'regex'; pattern: string };

export interface FallbackSettings {
  /**
   * Minimum confidence (0–1, a calibrated probability) to answer with an intent. Default: the
   * bot's own threshold, calibrated at each training by cross-validation on its examples (see
   * `IntentQuality.threshold`).
   */
  threshold?: number;
  responses?: string[];
}

/**
 * `GET /bots/{id}/quality` (and `/agents/{id}/quality`): k-fold cross-validation of the trained
 * model on its own examples, computed at each training.
 */
export interface IntentQuality {
  folds: number;
  examples: number;
  /** Share (0–1) of examples classified as their own intent by a model that did not see them. */
  accuracy: number;
  /** The calibrated fallback threshold (used unless `training.fallback.threshold` is set). */
  threshold: number;
  intents: { intent: string; examples: number; accuracy: number }[];
  /** The most frequent confusions, most first: `count` examples of `intent` were classified as `predicted`. */
  confused_pairs: { intent: string; predicted: string; count: number }[];
  /** Examples that another intent claims with high confidence: perhaps under the wrong intent. */
  suspect_examples: { intent: string; example: string; predicted: string; confidence: number }[];
}

/** `POST /bots/{id}/classify`: the owner tries a question on the bot's model. */
export interface ClassifyRequest {
  /** 1–4,000 characters. */
  text: string;
}

/**
 * `POST /bots/{id}/classify`: how the bot's model reads a question, without answering it: no
 * conversation is stored and analytics do not count it.
 */
export interface IntentClassification {
  /** The three most probable intents (fewer if the bot has fewer), most first; `confidence` is a calibrated probability (0–1). */
  intents: { name: string; confidence: number }[];
  /** True when a turn with this text would get no intent answer: below `threshold`, or no content word of the best intent's examples. */
  fallback: boolean;
  /** The threshold in force: `training.fallback.threshold`, else the calibrated one. */
  threshold: number;
}

export interface WebsiteChannel {
  type: 'website';
  /**
   * Origins (`https://example.com`) allowed to call this bot from a browser. Empty: no other origin
   * (CORS answers none unless the service's `AI_CHAT_CORS_ORIGINS` lists it); a page behind the
   * token proxy needs none.
   */
  allowed_origins: string[];
}

export type Channel = WebsiteChannel | { type: 'mobile' | 'messaging'; name?: string };

export type BotStatus = 'untrained' | 'training' | 'ready' | 'failed';

/** The launcher icons the widget draws itself (`BotAppearance.launcher_icon`). */
export const LAUNCHER_ICONS = ['chat', 'help'] as const;
export type LauncherIcon = (typeof LAUNCHER_ICONS)[number];

/**
 * How the chat widget looks for a bot. Each field fills the widget attribute of the same name in
 * kebab-case (`bot_name` → `bot-name`) unless the page set that attribute itself. Left out: the
 * widget's default. The avatar and the quick replies are the bot's `avatar_url` and `quick_replies`.
 */
export interface BotAppearance {
  /** The accent colour, `#rrggbb`: the launcher, the Send button, the visitor's bubbles. */
  color?: string;
  /** The launcher's corner; default `bottom-right`. */
  position?: 'bottom-right' | 'bottom-left';
  /** A built-in icon (`LAUNCHER_ICONS`) or an `https:` image URL, up to 2,048 characters. */
  launcher_icon?: LauncherIcon | (string & {});
  /** The name the widget shows, 1–60 characters; default: the bot's `name`. */
  bot_name?: string;
  /** The first bubble of an empty conversation, 1–500 characters, never sent; default: a localised greeting. */
  welcome_message?: string;
}

export interface CreateBotRequest {
  /** Required, 1–100 characters. */
  name: string;
  /** Optional, up to 1,000 characters. */
  description?: string;
  /** Optional ISO 639-1 code of a supported language (`en`, `de`, `fr`, `es`); default `en`. */
  language?: string;
  training?: TrainingData;
  /** Quick replies shown before the first message (conversation starters). */
  quick_replies?: string[];
  channels?: Channel[];
  /**
   * Which knowledge entries may ground this bot's answers (an agent's scope): `{tags: ['docs']}`
   * opens the entries tagged `docs`, `{tags: []}` every entry. Absent or `null`: none. Widget
   * visitors reach exactly this scope through the bot.
   */
  knowledge?: KnowledgeScope | null;
  /**
   * The avatar the chat widget shows for the bot: an `https:`/`http:` URL or a `data:image/…` URL,
   * up to 100,000 characters. Absent or `null`: none.
   */
  avatar_url?: string | null;
  /** What visitors may attach to a message; fields left out keep their value (on create: the defaults, off). */
  attachments?: Partial<AttachmentSettings>;
  /** How the chat widget looks; replaces the whole appearance (`{}`: the widget's defaults). */
  appearance?: BotAppearance;
}

/** `PUT /v1/bots/{bot_id}`: any subset; a new `training` retrains the bot before answering. */
export type UpdateBotRequest = Partial<CreateBotRequest>;

export interface Bot {
  id: string;
  name: string;
  description: string;
  language: string;
  status: BotStatus;
  training: TrainingData;
  quick_replies: string[];
  channels: Channel[];
  /** The entries its answers may use; `null`: none (see `CreateBotRequest.knowledge`). */
  knowledge: KnowledgeScope | null;
  /** The avatar the chat widget shows for the bot (see `CreateBotRequest.avatar_url`); `null`: none. */
  avatar_url: string | null;
  /** What visitors may attach to a message (off by default). */
  attachments: AttachmentSettings;
  /** How the chat widget looks: the fields set (`{}`: the widget's defaults). */
  appearance: BotAppearance;
  created_at: string;
  updated_at: string;
  trained_at: string | null;
}

export interface BotMessageRequest {
  /** 1–4,000 characters; may be empty when `attachments` names at least one file. */
  message: string;
  /** Ids of files uploaded for this bot and user (`POST /v1/attachments`), at most the bot's `max_files`. */
  attachments?: string[];
  /** The caller's id for the end user: 1–128 characters of `[A-Za-z0-9._:@-]`. */
  user_id: string;
  /** Answer as Server-Sent Events, as `/v1/chat` does; the `done` frame carries the `BotReply` envelope. */
  stream?: boolean;
  /** Who the visitor is and where they are, as on `/v1/chat`; stored on the conversation. */
  visitor?: VisitorContext;
}

export interface BotReply {
  conversation_id: string;
  /** The stored user message. */
  user_message: Message;
  /** The stored assistant reply. */
  message: Message;
  intent: string | null;
  confidence: number;
  entities: Entity[];
  suggestions: string[];
  /** True when no intent reached the confidence threshold. */
  fallback: boolean;
  /** Human handoff, as on `ChatReply.handoff` (`held`: the bot did not answer; `message` is the visitor's). */
  handoff?: HandoffState & { held?: true };
}
