/**
 * The v1 wire contract: every request body, response `data` and envelope the service speaks.
 *
 * This is the one shared types module for the client, the widget, the proxy and the reference
 * server (which imports it type-only). The OpenAPI document served at `GET /v1/openapi.json`
 * describes the same shapes; contract tests check the server against it.
 *
 * Conventions: ids are prefixed strings (`bot_…`, `agt_…`, `kb_…`, `conv_…`, `msg_…`, `job_…`),
 * times are ISO-8601 UTC strings, field names are snake_case as on the wire.
 */

// ---------------------------------------------------------------- envelope

/** `meta` of every successful response. */
export interface Meta {
  /** Also sent as the `X-Request-Id` header; quote it in bug reports. */
  request_id: string;
  /** Server-side processing time in milliseconds. */
  latency_ms: number;
  [key: string]: unknown;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta: Meta;
}

/** Stable, machine-readable error codes. The HTTP status for each is fixed (see `ERROR_STATUS`). */
export type ErrorCode =
  | 'authentication_required'
  | 'invalid_api_key'
  | 'invalid_token'
  | 'token_expired'
  | 'invalid_signature'
  | 'permission_denied'
  | 'insufficient_scope'
  | 'origin_not_allowed'
  | 'csrf_failed'
  | 'host_not_allowed'
  | 'invalid_credentials'
  | 'signup_not_allowed'
  | 'invalid_invite'
  | 'invalid_json'
  | 'json_too_deep'
  | 'invalid_cursor'
  | 'validation_failed'
  | 'unknown_parameter'
  | 'resource_not_found'
  | 'route_not_found'
  | 'unsupported_version'
  | 'method_not_allowed'
  | 'conflict'
  | 'url_not_allowed'
  | 'import_queue_full'
  | 'idempotency_key_reused'
  | 'request_in_progress'
  | 'invalid_status_transition'
  | 'handoff_unavailable'
  | 'secrets_key_missing'
  | 'upload_quota_exceeded'
  | 'payload_too_large'
  | 'storage_quota_exceeded'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'service_unavailable'
  | 'embeddings_unavailable'
  | 'internal_error';

/** The HTTP status each error code is answered with. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  authentication_required: 401,
  invalid_api_key: 401,
  invalid_token: 401,
  token_expired: 401,
  /** Channels: a platform's webhook delivery whose signature or secret token is not the channel's. */
  invalid_signature: 401,
  permission_denied: 403,
  /** A read-only API key used for anything but GET or HEAD. */
  insufficient_scope: 403,
  origin_not_allowed: 403,
  /** Dashboard: a cookie-authenticated write without a matching Origin and X-CSRF-Token. */
  csrf_failed: 403,
  /** The request's `Host` is not one of the service's names (loopback or `AI_CHAT_PUBLIC_URL`): DNS rebinding. */
  host_not_allowed: 421,
  /** Dashboard sign-in: the same answer for an unknown email and a wrong password. */
  invalid_credentials: 401,
  /** Dashboard sign-up refused by the install's policy (invite only, or closed). */
  signup_not_allowed: 403,
  /** Dashboard: an invite link that is unknown, used, revoked or expired (indistinguishable). */
  invalid_invite: 400,
  invalid_json: 400,
  json_too_deep: 400,
  invalid_cursor: 400,
  validation_failed: 400,
  unknown_parameter: 400,
  resource_not_found: 404,
  route_not_found: 404,
  unsupported_version: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** Knowledge imports: a URL whose host is a private, loopback or reserved address literal. */
  url_not_allowed: 400,
  /** Knowledge imports: the account has as many jobs waiting or running as it may; retry when one has finished. */
  import_queue_full: 429,
  idempotency_key_reused: 409,
  request_in_progress: 409,
  /** Handoff: the conversation's status does not allow this (e.g. taking one another operator took). */
  invalid_status_transition: 409,
  /** Handoff: a person cannot be asked for now (handoff off, outside hours, nobody online). */
  handoff_unavailable: 409,
  /** Channels: credentials cannot be stored or read: the service has no `AI_CHAT_SECRETS_KEY` (or not the key that sealed them). */
  secrets_key_missing: 503,
  /** Attachments: unsent uploads of this visitor, client address or bot hold their byte quota. */
  upload_quota_exceeded: 409,
  payload_too_large: 413,
  /** Attachments: the account's files hold its storage quota. */
  storage_quota_exceeded: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_error: 502,
  upstream_timeout: 504,
  service_unavailable: 503,
  /** The embeddings endpoint failed; only background work and logs see it (search falls back to lexical). */
  embeddings_unavailable: 503,
  internal_error: 500,
};

/** One offending value of a refused request (an entry of `error.details`): where it is and what is wrong. */
export interface ValidationIssue {
  /** JSON pointer of the offending value, e.g. `/messages/0/content`. */
  path: string;
  message: string;
}

/**
 * @deprecated Renamed `ValidationIssue`. `ErrorDetail` is the `detail` of the widget's
 * `ai-chat-error` event (`ai-chat-widget`); this alias goes in the next major version.
 */
export type ErrorDetail = ValidationIssue;

export interface ApiErrorBody {
  code: ErrorCode;
  /** Human-readable, safe to show to a developer; never contains a stack trace or secret. */
  message: string;
  /** The offending parameter (body field, query parameter or path id), when there is one. */
  param?: string;
  details?: ValidationIssue[];
  request_id?: string;
}

export interface ErrorEnvelope {
  success: false;
  error: ApiErrorBody;
}

export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

/** A page of a cursor-paginated list. Pass `next_cursor` back as `cursor` to get the next page. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface PageQuery {
  /** 1–200; default 50. */
  limit?: number;
  cursor?: string;
}

// ---------------------------------------------------------------- conversations and messages

export type Role = 'system' | 'user' | 'assistant';

/** An element of `POST /v1/chat`'s `messages` array. */
export interface ChatMessage {
  role: Role;
  /** 1–8,000 characters. */
  content: string;
}

/** A stored message, as history and replies return it. */
export interface Message {
  id: string;
  conversation_id: string;
  /** `operator`: written by a person in the dashboard inbox (see `author`). */
  role: Role | 'operator';
  content: string;
  created_at: string;
  /** Present on assistant messages. */
  source?: ReplySource;
  intent?: string | null;
  confidence?: number | null;
  citations?: Citation[];
  suggestions?: string[];
  /**
   * `true` on an assistant reply the user stopped while it streamed (the client closed the stream):
   * `content` is the text sent before the stop. Absent otherwise.
   */
  stopped?: true;
  /** Present on operator messages: who wrote it, as the visitor saw it. */
  author?: OperatorProfile;
  /** Files sent with the message (`GET /v1/attachments/{id}` reads each); absent when none. */
  attachments?: Attachment[];
}

/** Where an assistant reply came from. */
export type ReplySource = 'intent' | 'knowledge' | 'fallback' | 'llm';

export interface Citation {
  entry_id: string;
  title: string;
  snippet: string;
  score: number;
  source?: string | null;
  /**
   * The page the cited text is on (`http:`/`https:` only): an imported entry's page, or a typed
   * entry's `source` when that is such a URL. `null` or absent: nothing to link.
   */
  url?: string | null;
  /** The headings above the cited text in its document, outermost first (imported entries). */
  heading_path?: string[];
}

export interface Entity {
  /** Entity name as declared in the training data. */
  entity: string;
  /** Normalised value (the list option's value, or the regex match). */
  value: string;
  /** The text that matched. */
  text: string;
}

// ---------------------------------------------------------------- bots

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

// ---------------------------------------------------------------- chat

export interface ChatRequest {
  /** 1–100 messages, the last one with role `user`. */
  messages: ChatMessage[];
  /** Continue this conversation; omitted: a new conversation is started. */
  conversation_id?: string;
  agent_id?: string;
  bot_id?: string;
  /** Whose conversation it is (history by user); 1–128 characters of `[A-Za-z0-9._:@-]`. */
  user_id?: string;
  /** Answer as Server-Sent Events (`meta`, `delta`…, then `done` with the full envelope). */
  stream?: boolean;
  /**
   * Files for the last (user) message, uploaded for this bot (`POST /v1/attachments`); needs
   * `bot_id` or a conversation with a bot. That message's `content` may then be empty.
   */
  attachments?: string[];
}

export interface ChatReply {
  conversation_id: string;
  /** The stored assistant message. */
  message: Message;
  source: ReplySource;
  intent: string | null;
  confidence: number | null;
  citations: Citation[];
  suggestions: string[];
  /**
   * Human handoff (docs/handoff.md): the conversation's handoff state after this turn, present when
   * the bot has handoff on (or the turn met a person). `held: true`: a person is involved, so the bot did not answer: `message` is the stored
   * visitor message, and replies arrive on the events stream.
   */
  handoff?: HandoffState & { held?: true };
}

/**
 * Events of a streamed turn, `POST /v1/chat` or `POST /v1/bots/{id}/messages` with `stream: true`
 * (`event:` name → `data:` JSON).
 */
export interface TurnStreamEvents<Reply> {
  meta: { request_id: string; conversation_id: string };
  delta: { text: string };
  done: SuccessEnvelope<Reply>;
  error: ErrorEnvelope;
}

export type ChatStreamEvents = TurnStreamEvents<ChatReply>;
export type BotStreamEvents = TurnStreamEvents<BotReply>;

export interface HistoryQuery extends PageQuery {
  conversation_id?: string;
  user_id?: string;
  bot_id?: string;
}

/** Messages oldest → newest. */
export type HistoryPage = Page<Message>;

/** `GET /v1/conversations` filters; they combine with AND. */
export interface ConversationListQuery extends PageQuery {
  bot_id?: string;
  agent_id?: string;
  user_id?: string;
  /** Started at or after this ISO date or date-time. */
  from?: string;
  /** Started at or before this ISO date or date-time (a date includes that whole day). */
  to?: string;
  /** A message contains every word (case-insensitive; a word also matches the start of a longer one). */
  q?: string;
}

/** A conversation as `GET /v1/conversations` lists it; its messages come from `GET /v1/chat/history`. */
export interface Conversation {
  id: string;
  bot_id: string | null;
  agent_id: string | null;
  user_id: string | null;
  created_at: string;
  /** When the last message was added. */
  updated_at: string;
  /** The newest message, its text cut to 200 characters; null while there is none. */
  last_message: { id: string; role: Role | 'operator'; preview: string; created_at: string } | null;
}

/** What every `DELETE` answers: the deleted id and what went with it. */
export interface Deletion {
  id: string;
  deleted: true;
  /** Conversations deleted with it (1 for a conversation itself; a bot's or agent's own). */
  conversations: number;
  /** Messages deleted with it. */
  messages: number;
}

// ---------------------------------------------------------------- agents

export interface ModelSettings {
  /** `builtin` (deterministic, grounded) or `openai-compatible` (the configured LLM). */
  provider?: 'builtin' | 'openai-compatible';
  /** Model name passed to the provider. */
  name?: string;
  /** 0–2. */
  temperature?: number;
  /** 1–32,000. */
  max_tokens?: number;
}

export interface KnowledgeScope {
  /** Only entries carrying one of these tags ground the agent's or bot's answers. Empty: all entries. */
  tags?: string[];
  /**
   * The least `KnowledgeHit.relevance` (0–1) a passage needs to ground an answer; below it the reply
   * is the fallback (or a handoff). Default 0.5, calibrated on a banking FAQ; 0 turns the gate off.
   */
  min_relevance?: number;
}

export interface AgentExample {
  input: string;
  output: string;
}

export interface CreateAgentRequest {
  /** Required, 1–100 characters. */
  name: string;
  description?: string;
  /** System instructions, up to 8,000 characters. */
  instructions?: string;
  language?: string;
  model?: ModelSettings;
  knowledge?: KnowledgeScope;
  /** Example exchanges; training turns each into an intent. */
  examples?: AgentExample[];
  training?: TrainingData;
}

export type UpdateAgentRequest = Partial<CreateAgentRequest>;

export type AgentStatus = 'draft' | 'training' | 'ready' | 'failed';

export interface Agent {
  id: string;
  name: string;
  description: string;
  instructions: string;
  language: string;
  model: Required<Pick<ModelSettings, 'provider'>> & ModelSettings;
  knowledge: KnowledgeScope;
  examples: AgentExample[];
  training: TrainingData;
  status: AgentStatus;
  latest_job_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface TrainAgentRequest {
  /** Fraction (0–0.5) of examples held out to measure accuracy; default 0.2. */
  holdout?: number;
}

export type TrainingJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface TrainingMetrics {
  intents: number;
  /** Examples the served model learned from: all of them (held-out ones only measure, then join). */
  examples: number;
  /** Examples held out of a first training run to measure `holdout_accuracy`. */
  holdout_examples: number;
  /** Share of held-out examples classified as their own intent (0–1), or null with none held out. */
  holdout_accuracy: number | null;
  training_ms: number;
}

export interface TrainingJob {
  id: string;
  agent_id: string;
  status: TrainingJobStatus;
  metrics: TrainingMetrics | null;
  error: { code: string; message: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

// ---------------------------------------------------------------- knowledge

export interface CreateKnowledgeRequest {
  /** Required, 1–200 characters. */
  title: string;
  /** Required, 1–100,000 characters (markdown or plain text). */
  content: string;
  /** Up to 20 tags of 1–50 characters. */
  tags?: string[];
  language?: string;
  /** Where the text came from: a URL or a label. */
  source?: string;
}

export type UpdateKnowledgeRequest = Partial<CreateKnowledgeRequest>;

export interface KnowledgeEntry {
  id: string;
  title: string;
  content: string;
  tags: string[];
  language: string;
  source: string | null;
  /** The page an imported entry came from; `null` for typed entries. */
  url: string | null;
  /** The headings above an imported entry's text in its document, outermost first; `[]` for typed entries. */
  heading_path: string[];
  /** The import that wrote the entry (its re-sync updates or deletes it); `null` for typed entries. */
  import_id: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeSearchQuery {
  /** Required, 1–500 characters. */
  q: string;
  /** 1–50; default 10. */
  limit?: number;
  /** Only entries with at least one of these tags (comma-separated on the wire). */
  tags?: string[];
  language?: string;
}

export interface KnowledgeHit {
  entry_id: string;
  title: string;
  snippet: string;
  score: number;
  /**
   * How likely the entry answers the query, 0–1, calibrated like a probability (the best BM25 hit
   * of an unrelated question scores low); chat answers only from hits reaching the bot's or
   * agent's `knowledge.min_relevance`.
   */
  relevance: number;
  tags: string[];
  source: string | null;
  /** The page to link (see `Citation.url`), or `null`. */
  url: string | null;
  heading_path: string[];
}

export interface KnowledgeSearchResult {
  query: string;
  items: KnowledgeHit[];
}

/** What an import reads: uploaded files, one page and the same-host pages it links to, or a sitemap's pages. */
export type KnowledgeImportKind = 'files' | 'url' | 'sitemap';

/** One uploaded document of a `files` import. */
export interface KnowledgeImportFile {
  /** File name, 1–200 characters; unique within the import (re-sync matches documents by it). */
  name: string;
  /** `text/markdown`, `text/html`, `text/plain` or `application/pdf`; default from the name's extension. */
  media_type?: string;
  /** The file's bytes, base64-encoded. */
  data: string;
}

/** `POST /v1/knowledge/imports`. */
export interface CreateKnowledgeImportRequest {
  kind: KnowledgeImportKind;
  /** `url` and `sitemap`: the page or the sitemap (`http:`/`https:`, no credentials). */
  url?: string;
  /** `files`: 1–50 documents. */
  files?: KnowledgeImportFile[];
  /** A label; default the URL or the first file name. */
  name?: string;
  /** `url` and `sitemap`: the most pages read, 1–the service's limit (default 50). */
  max_pages?: number;
  /** Tags of every entry the import writes. */
  tags?: string[];
  language?: string;
}

/** `POST /v1/knowledge/imports/{id}/sync`: a `files` import takes the files anew; others re-read their pages. */
export interface SyncKnowledgeImportRequest {
  files?: KnowledgeImportFile[];
}

export type KnowledgeImportJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface KnowledgeImportProgress {
  /** Documents found so far (pages grow while a site is crawled). */
  documents_found: number;
  documents_done: number;
  entries_created: number;
  entries_updated: number;
  entries_deleted: number;
  entries_unchanged: number;
}

/** A document the job skipped or could not read (it is not failed for one): why, with a stable code. */
export interface KnowledgeImportIssue {
  /** The page URL or file name. */
  document: string;
  code: string;
  message: string;
}

/** One run of an import; poll `GET /v1/knowledge/imports/{id}` for its progress. */
export interface KnowledgeImportJob {
  id: string;
  status: KnowledgeImportJobStatus;
  progress: KnowledgeImportProgress;
  /** Up to 100 issues. */
  issues: KnowledgeImportIssue[];
  error: { code: string; message: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface KnowledgeImport {
  id: string;
  kind: KnowledgeImportKind;
  name: string;
  /** The page or sitemap (`url`, `sitemap`); `null` for files. */
  url: string | null;
  max_pages: number;
  tags: string[];
  language: string;
  /** Entries this import holds now. */
  entries: number;
  /** The latest job (the running one while it runs). */
  job: KnowledgeImportJob | null;
  created_at: string;
  updated_at: string;
}

// ---------------------------------------------------------------- analytics

export type Granularity = 'hour' | 'day';

export interface UsageQuery {
  /** ISO date or date-time; default 7 days before `to`. */
  from?: string;
  /** ISO date or date-time; default now. */
  to?: string;
  granularity?: Granularity;
}

/** Deletions in a period, by what was deleted; `conversations` and `messages` include those deleted with a bot or agent. */
export interface DeletionCounts {
  bots: number;
  agents: number;
  knowledge_entries: number;
  conversations: number;
  messages: number;
}

export interface UsageBucket {
  /** Start of the bucket, ISO date-time. */
  start: string;
  requests: number;
  errors: number;
  /** Messages stored in the bucket and not deleted since. */
  messages: number;
  /** Conversations started in the bucket and not deleted since. */
  conversations: number;
  /** What was deleted in the bucket. */
  deleted: DeletionCounts;
}

export interface EndpointUsage {
  method: string;
  /** Route pattern, e.g. `/v1/bots/:bot_id/messages`. */
  route: string;
  status: number;
  count: number;
}

export interface UsageReport {
  from: string;
  to: string;
  granularity: Granularity;
  totals: { requests: number; errors: number; messages: number; conversations: number; deleted: DeletionCounts };
  series: UsageBucket[];
  endpoints: EndpointUsage[];
}

export interface PerformanceQuery {
  agent_id?: string;
  bot_id?: string;
  from?: string;
  to?: string;
}

export interface PerformanceReport {
  from: string;
  to: string;
  agent_id: string | null;
  bot_id: string | null;
  /** Assistant replies measured. */
  replies: number;
  latency_ms: { p50: number | null; p95: number | null; p99: number | null };
  /** Share of replies that fell back (0–1), null with no replies. */
  fallback_rate: number | null;
  mean_confidence: number | null;
  /** Share of conversations whose last reply was not a fallback (0–1). */
  resolution_rate: number | null;
  conversations: number;
}

export interface TopicsQuery extends PerformanceQuery {
  /** Rows per list, 1–50. @default 10 */
  limit?: number;
}

export interface IntentCount {
  intent: string;
  /** Replies that answered with this intent. */
  count: number;
}

export interface UnansweredQuestion {
  /** The latest wording of the question (at most 200 characters); askings are grouped case-insensitively. */
  question: string;
  /** Times it was asked and the reply fell back. */
  count: number;
  last_asked_at: string;
}

export interface TopicsReport {
  from: string;
  to: string;
  agent_id: string | null;
  bot_id: string | null;
  /** The intents replies answered with, most frequent first. */
  intents: IntentCount[];
  /** The questions whose reply was a fallback, most frequent first. */
  unanswered: UnansweredQuestion[];
}

// ---------------------------------------------------------------- feedback

export type FeedbackRating = 'up' | 'down';

/** Why an answer got a thumbs down (only with `rating: 'down'`). */
export type FeedbackReason = 'incorrect' | 'not_helpful' | 'incomplete' | 'other';

/** `POST /v1/messages/{message_id}/feedback`: given again, it replaces the rater's earlier feedback. */
export interface FeedbackRequest {
  rating: FeedbackRating;
  reason?: FeedbackReason;
  /** Free text, at most 1,000 characters. */
  comment?: string;
  /** The rater: the conversation's end user (omit for a conversation without one). A widget token sets it. */
  user_id?: string;
  /** When given, the message must be in a conversation with this bot (a widget token sets it). */
  bot_id?: string;
  /** When given, the message must be in a conversation with this agent. */
  agent_id?: string;
}

/** Whose feedback `DELETE /v1/messages/{message_id}/feedback` takes back. */
export interface FeedbackScope {
  user_id?: string;
  bot_id?: string;
  agent_id?: string;
}

export interface Feedback {
  message_id: string;
  conversation_id: string;
  user_id: string | null;
  bot_id: string | null;
  agent_id: string | null;
  rating: FeedbackRating;
  reason: FeedbackReason | null;
  comment: string | null;
  created_at: string;
  /** When it was last given (the reports count it on this day). */
  updated_at: string;
}

export interface FeedbackQuery extends TopicsQuery {
  granularity?: Granularity;
}

export interface FeedbackCounts {
  up: number;
  down: number;
}

export interface DownvotedAnswer {
  /** The answer's text (at most 500 characters); the same text in many conversations is one answer. */
  answer: string;
  down: number;
  up: number;
  /** The latest downvoted message with this text, and its conversation. */
  message_id: string;
  conversation_id: string;
  last_down_at: string;
}

export interface FeedbackReport {
  from: string;
  to: string;
  granularity: Granularity;
  agent_id: string | null;
  bot_id: string | null;
  totals: FeedbackCounts;
  /** Every bucket of the range, oldest first, including empty ones. */
  series: (FeedbackCounts & { start: string })[];
  /** Per bot and agent (null: none), most feedback first; at most `limit` rows. */
  owners: (FeedbackCounts & { bot_id: string | null; agent_id: string | null })[];
  /** Reasons given with thumbs down, most frequent first. */
  reasons: { reason: FeedbackReason; count: number }[];
  /** The answers with the most thumbs down, most first. */
  most_downvoted: DownvotedAnswer[];
  /** The newest feedback that came with a comment, newest first; at most `limit` rows. */
  comments: FeedbackComment[];
}

/** A visitor's comment on an answer, with their rating and reason, in the feedback report. */
export interface FeedbackComment {
  message_id: string;
  conversation_id: string;
  bot_id: string | null;
  agent_id: string | null;
  rating: FeedbackRating;
  reason: FeedbackReason | null;
  comment: string;
  /** The answer's text, at most 500 characters. */
  answer: string;
  /** When the feedback was last given. */
  updated_at: string;
}

// ---------------------------------------------------------------- rate limits

/** Parsed `X-RateLimit-*` headers. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** UTC epoch seconds at which the window resets. */
  reset: number;
}

export * from './handoff-types.js';
export * from './attachment-types.js';
import type { Attachment, AttachmentSettings } from './attachment-types.js';
import type { HandoffState, OperatorProfile } from './handoff-types.js';

/**
 * Events of `GET /v1/conversations/{id}/events` (the visitor) and `GET /dashboard/api/inbox/events`
 * (the operator), `event:` name → `data:` JSON. Every stored event has an `id:` (resume with
 * `Last-Event-ID`); `typing` is not stored and has none.
 */
export interface HandoffStreamEvents {
  /** A status change (asked, taken, closed). */
  status: HandoffState;
  /** A message written while a person is involved: the visitor's, or an operator's (`role: 'operator'`). */
  message: Message;
  /** Someone is typing: the operator (to the visitor's stream) or the visitor (to both); show it for a few seconds. */
  typing: { conversation_id: string; from: 'operator' | 'visitor'; operator: OperatorProfile | null };
}

export type HandoffEvent = {
  [K in keyof HandoffStreamEvents]: { type: K; id: string | null; data: HandoffStreamEvents[K] };
}[keyof HandoffStreamEvents];
