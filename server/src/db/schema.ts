/** Kysely table types: the database as the services see it. JSON columns hold parsed values. */
import type { ColumnType, Generated } from 'kysely';
import type { HandoffStatus, StoredVisitor } from '../../../src/client/types.ts';

/** timestamptz: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb: read parsed; written as a JSON string (see `json()` in db/json.ts — pg would send arrays as PG arrays). */
export type Json<T> = ColumnType<T, string, string>;
/** A nullable text column that inserts may leave out. */
type OptionalText = ColumnType<string | null, string | null | undefined, string | null>;

export interface AccountsTable {
  id: string;
  name: string;
  /** Requests per window for this account's plan; null: the service default. */
  rate_limit_points: number | null;
  rate_limit_duration_seconds: number | null;
  /** Bumped on every knowledge write, so each process knows when its search index is stale. */
  kb_revision: Generated<string>;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** sha256 of the key; the key itself is never stored. */
  key_hash: string;
  /** First characters of the key, to tell keys apart in a UI. */
  prefix: string;
  /** Set on keys the service issues for itself (e.g. `demo-proxy`); null for user keys. */
  label: string | null;
  created_at: Generated<Date>;
  revoked_at: NullableTimestamp;
}

export interface BotsTable {
  id: string;
  account_id: string;
  name: string;
  description: string;
  language: string;
  status: string;
  training: Json<unknown>;
  quick_replies: Json<string[]>;
  channels: Json<unknown[]>;
  /** The knowledge scope (migration 005): `{tags}` like an agent's; null: no knowledge. */
  knowledge: Json<unknown> | null;
  /** The trained NLU model (nlu/stored-model.ts; an older format is retrained at start), null until trained. */
  nlu_model: Json<unknown> | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** The avatar the widget shows for the bot (migration 014): an http(s) or data:image URL; null: none. */
  avatar_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** What visitors may attach (migration 017, attachments/settings.ts); null: the defaults (off). */
  attachments: ColumnType<unknown | null, string | null | undefined, string | null>;
  /** How the widget looks (migration 029, bots/schema.ts `appearance`); null: the widget's defaults. */
  appearance: ColumnType<unknown | null, string | null | undefined, string | null>;
  trained_at: NullableTimestamp;
  /** `training->'fallback'`, kept by PostgreSQL (migration 019): turns read it without the training. */
  training_fallback: ColumnType<unknown | null, never, never>;
}

export interface AgentsTable {
  id: string;
  account_id: string;
  name: string;
  description: string;
  instructions: string;
  language: string;
  model: Json<unknown>;
  knowledge: Json<unknown>;
  examples: Json<unknown[]>;
  training: Json<unknown>;
  status: string;
  nlu_model: Json<unknown> | null;
  /** The training job that produced `nlu_model` (migration 002): the model's cache key. */
  model_job_id: string | null;
  /** The training data `nlu_model` was trained on (migration 002), intents with their responses. */
  model_training: Json<unknown> | null;
  /** `training->'fallback'`, kept by PostgreSQL (migration 019): turns read it without the training. */
  training_fallback: ColumnType<unknown | null, never, never>;
  latest_job_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TrainingJobsTable {
  id: string;
  account_id: string;
  agent_id: string;
  status: string;
  holdout: number;
  metrics: Json<unknown> | null;
  error: Json<unknown> | null;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** Touched while a process runs the job (migration 002); a stale one means that process died. */
  heartbeat_at: NullableTimestamp;
}

export interface ConversationsTable {
  id: string;
  account_id: string;
  bot_id: string | null;
  agent_id: string | null;
  user_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Who answers it (migration 016): the bot, a person asked for, a person, or nobody (closed); see conversations/status.ts. */
  status: ColumnType<HandoffStatus, HandoffStatus | undefined, HandoffStatus>;
  /** Since when a person is asked for; kept while one has it. */
  waiting_since: NullableTimestamp;
  /** The dashboard user who has it (`with_person`). */
  operator_id: OptionalText;
  /** Started by a dashboard session (migration 023): counts nowhere (conversations/test-conversations.ts). */
  is_test: Generated<boolean>;
  /** Free-text labels the team puts on it (migration 025; conversations/labels.ts). */
  labels: Generated<string[]>;  /** What the widget last told about the visitor (migration 032; conversations/visitor.ts). */
  visitor: ColumnType<StoredVisitor | null, string | undefined, string>;
}

export interface MessagesTable {
  id: string;
  /** Insertion order; the history cursor. */
  seq: Generated<string>;
  account_id: string;
  conversation_id: string;
  role: string;
  content: string;
  source: string | null;
  intent: string | null;
  confidence: number | null;
  citations: Json<unknown[]> | null;
  suggestions: Json<string[]> | null;
  /** Time to produce an assistant reply, for performance analytics. */
  latency_ms: number | null;
  /** The request's `Idempotency-Key`, on the user message of a turn (migration 004); unique per account. */
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** sha256 of the keyed request (as in `idempotency_keys`): the same key with another request is refused. */
  idempotency_request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The words of `content` (migration 007), generated by the database, for the conversation list's text filter. */
  content_words: ColumnType<string, never, never>;
  /** Entities a bot reply extracted (migration 004), on the assistant message, for replays. */
  entities: ColumnType<unknown[] | null, string | null | undefined, string | null>;
  /** The user stopped this assistant reply while it streamed (migration 014): `content` is what was sent. */
  stopped: Generated<boolean>;
  /** The files sent with it (migration 017): `Attachment[]`; null: none. */
  attachments: ColumnType<unknown[] | null, string | null | undefined, string | null>;
  /** The operator who wrote an `operator` message (migration 016), as visitors saw them then. */
  author_id: OptionalText;
  author_name: OptionalText;
  author_avatar_url: OptionalText;
  created_at: Generated<Date>;
}

export interface KnowledgeEntriesTable {
  id: string;
  account_id: string;
  title: string;
  content: string;
  tags: Json<string[]>;
  language: string;
  source: string | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Migration 012: the page an imported entry came from and the headings above its text (citations). */
  url: OptionalText;
  heading_path: ColumnType<string[], string | undefined, string>;
  /** Migration 012: the import that wrote the entry, its document there, its section key and content hash (re-sync). */
  import_id: OptionalText;
  import_document: OptionalText;
  import_key: OptionalText;
  content_hash: OptionalText;
}

/** A knowledge import (migration 012): uploaded files, a page and its same-host links, or a sitemap. */
export interface KnowledgeImportsTable {
  id: string;
  account_id: string;
  kind: string;
  name: string;
  url: string | null;
  max_pages: number;
  tags: Json<string[]>;
  language: string;
  latest_job_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One run of an import (migration 012), a job like agent training (`knowledge/import/jobs.ts`). */
export interface KnowledgeImportJobsTable {
  id: string;
  account_id: string;
  import_id: string;
  status: string;
  progress: Json<unknown>;
  issues: Json<unknown[]>;
  error: Json<unknown> | null;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  heartbeat_at: NullableTimestamp;
}

/** One knowledge write (migration 010): a search index at an older revision applies it (knowledge/index-cache.ts). */
export interface KnowledgeChangesTable {
  account_id: string;
  /** The account's `kb_revision` after the write (bigint as a string). */
  revision: string;
  entry_id: string;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  /** sha256 of method + path + body: the same key with another request is refused. */
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Generated<Date>;
}

export interface ApiRequestsTable {
  id: Generated<string>;
  account_id: string | null;
  method: string;
  route: string;
  status: number;
  latency_ms: number;
  created_at: Generated<Date>;
}

/** One delete (migration 007), for the usage report: what went, never which. */
export interface DeletionsTable {
  id: Generated<string>;
  account_id: string;
  /** `bot`, `agent`, `knowledge_entry` or `conversation`. */
  resource: string;
  /** Conversations deleted with it (1 for a conversation itself). */
  conversations: number;
  /** Messages deleted with it. */
  messages: number;
  created_at: Generated<Date>;
}

/** Feedback on an assistant message (migration 013), one per message and rater (`user_id` '' for none). */
export interface MessageFeedbackTable {
  account_id: string;
  message_id: string;
  user_id: string;
  /** Copied from the message's conversation, so the reports read this table alone. */
  conversation_id: string;
  bot_id: string | null;
  agent_id: string | null;
  /** md5 of the answer's text: the same answer downvoted in many conversations is one row of the report. */
  answer_key: string;
  rating: string;
  reason: string | null;
  comment: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  bots: BotsTable;
  agents: AgentsTable;
  training_jobs: TrainingJobsTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  knowledge_entries: KnowledgeEntriesTable;
  knowledge_changes: KnowledgeChangesTable;
  knowledge_imports: KnowledgeImportsTable;
  knowledge_import_jobs: KnowledgeImportJobsTable;
  idempotency_keys: IdempotencyKeysTable;
  api_requests: ApiRequestsTable;
  deletions: DeletionsTable;
  message_feedback: MessageFeedbackTable;
}
