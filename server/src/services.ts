/**
 * The service graph: core dependencies every resource gets, plus the resource services. Built once
 * per process in `index.ts`; routes receive `Deps` and never construct services themselves.
 */
import type { Kysely } from 'kysely';
import type { AccountService } from './accounts/service.ts';
import type { UsageRecorder } from './analytics/recorder.ts';
import type { ServiceConfig } from './config.ts';
import type { DashboardServices } from './dashboard/services.ts';
import type { Database } from './db/schema.ts';
import { releaseInterruptedKeys } from './http/idempotency.ts';
import { AttachmentService } from './attachments/service.ts';
import { AgentService } from './agents/service.ts';
import { AnalyticsReports } from './analytics/reports.ts';
import { TrainingJobs } from './agents/jobs.ts';
import { KnowledgeService } from './knowledge/service.ts';
import { ImportJobs } from './knowledge/import/jobs.ts';
import { KnowledgeImports } from './knowledge/import/service.ts';
import { createLlmProvider, type LlmProvider } from './llm/index.ts';
import { openSemanticKnowledge } from './embeddings/semantic.ts';
import type { Logger } from './logger.ts';
import { BotService } from './bots/service.ts';
import { TurnPipeline } from './turns/pipeline.ts';
import { resolveChannelConfig } from './channels/options.ts';
import { queueOperatorReplies } from './channels/outbox.ts';
import { ChannelService } from './channels/service.ts';
import { ConversationService } from './conversations/service.ts';
import { CsatService } from './csat/service.ts';
import { FeedbackService } from './feedback/service.ts';
import type { HandoffBus } from './handoff/bus.ts';
import { InboxService } from './handoff/inbox.ts';
import { Assignments } from './handoff/assignment.ts';
import { HandoffService } from './handoff/service.ts';
import { OperatorPresences } from './handoff/presence.ts';
import { WaitingEmails } from './handoff/waiting-email.ts';
import { OfflineMessages } from './handoff/offline-messages.ts';
import { HandoffSettingsService } from './handoff/settings.ts';
import { HandoffTurns } from './handoff/turns.ts';
import { createNluEngine, type NluEngine } from './nlu/index.ts';
import type { RateLimits } from './rate-limit/limiter.ts';
import { WidgetTokens } from './widget-tokens/service.ts';
import { resolveWebhookConfig } from './webhooks/options.ts';
import { WebhookService } from './webhooks/service.ts';
import { SecretBox } from './db/secrets.ts';
import { CannedReplyService } from './canned-replies/service.ts';

export interface CoreDeps {
  config: ServiceConfig;
  logger: Logger;
  db: Kysely<Database>;
  accounts: AccountService;
  rateLimits: RateLimits;
  usage: UsageRecorder;
  /** Live handoff events between streams and instances (Redis pub/sub when REDIS_URL is set). */
  handoffBus: HandoffBus;
}

/** Resource services (each resource folder adds its own here). */
export interface Services {
  /** Knowledge entries + search (`search(accountId, {q, limit, tags?, language?})`). */
  knowledge: KnowledgeService;
  /** Intent training (worker thread) and parsing; shared by bots and agents. */
  nlu: NluEngine;
  /** Conversations and their messages: the one writer, the transcript, the resource (list, get, delete). */
  conversations: ConversationService;
  bots: BotService;
  /** The turn pipeline: answers and stores every chat turn (both `/v1/chat` and bot messages). */
  turns: TurnPipeline;
  /** AI agents (CRUD + `runtime()` for answering as an agent). */
  agents: AgentService;
  /** Agent training jobs, run in the background of this process. */
  trainingJobs: TrainingJobs;
  /** The OpenAI-compatible LLM, or null when none is configured (`config.llm`). */
  llm: LlmProvider | null;
  /** Usage and performance reports. */
  analytics: AnalyticsReports;
  /** Knowledge imports (files, pages, sitemaps) and their jobs, run in the background of this process. */
  knowledgeImports: KnowledgeImports;
  importJobs: ImportJobs;
  /** Feedback on assistant answers, and its report. */
  feedback: FeedbackService;
  /** Satisfaction ratings of conversations (CSAT), and the support report. */
  csat: CsatService;
  /** Human handoff: conversation status, operator messages, live events (handoff/). */
  handoff: HandoffService;
  /** The operator inbox's reads. */
  inbox: InboxService;
  /** Operators' presence (online, away, offline): the handoff's "is anyone online". */
  presences: OperatorPresences;
  /** Who gets which conversation: by hand, and automatically when the account turns it on. */
  assignments: Assignments;
  /** Emails the team about conversations nobody took in time (with `AI_CHAT_SMTP_URL`). */
  waitingEmails: WaitingEmails;
  /** Messages left while nobody was online, and their answers by email from the inbox (with `AI_CHAT_SMTP_URL`). */
  offlineMessages: OfflineMessages;
  /** Files sent with messages: upload, read, and the check before a message takes them. */
  attachments: AttachmentService;
  /** Messaging platforms (channels/): connections, webhooks, the inbound queue and the outbox. */
  channels: ChannelService;
  /** Outgoing webhooks (webhooks/): subscriptions, their delivery log, and the delivery worker. */
  webhooks: WebhookService;
  /** The texts a team inserts in the inbox by shortcut (canned-replies/). */
  cannedReplies: CannedReplyService;
  /** Visitor tokens the service mints for bots' listed website origins (the one-snippet install). */
  widgetTokens: WidgetTokens;
  /** Retraining of the models an NLU upgrade left outdated, in the background; `stop()` ends it. */
  nluUpgrade: { stop(): Promise<void>; done: Promise<void> };
}

/** `dashboard`: users, sessions, invites and key management behind /dashboard/api (built in index.ts). */
export type Deps = CoreDeps & Services & { dashboard: DashboardServices };

export async function createServices(core: CoreDeps): Promise<Services> {
  // Handoff first: the turn pipeline asks it whether a person has the conversation.
  const nlu = createNluEngine({
    // A message whose entity regexes ran past their deadline was answered without them: say so.
    onPatternError: (error) => core.logger.error('entity regexes not matched', { error: error instanceof Error ? error.message : String(error) }),
  });
  // Embedded PGlite belongs to this process alone, so any job still active in it was interrupted,
  // and so was any request still marked running under an Idempotency-Key.
  const singleProcess = !core.config.databaseUrl;
  const trainingJobs = new TrainingJobs(core.db, nlu, core.logger, { singleProcess });
  await trainingJobs.recoverInterrupted();
  const importJobs = new ImportJobs(core.db, core.logger, core.config.imports, { singleProcess });
  await importJobs.recoverInterrupted();
  if (singleProcess) await releaseInterruptedKeys(core.db);
  const bots = new BotService(core.db, nlu, core.logger, core.config.maxAttachmentBytes);
  const conversations = new ConversationService(core.db);
  const attachments = new AttachmentService(core.db, bots, conversations, core.config.maxAttachmentBytes, core.config.attachmentQuotas);
  // A bot on messaging platforms; an operator's reply to a platform conversation is queued for it.
  const channelConfig = resolveChannelConfig(core.config.channels);
  // Credentials at rest, channels' and webhooks' signing secrets alike, under AI_CHAT_SECRETS_KEY.
  const secrets = new SecretBox(channelConfig.secretsKey, channelConfig.previousSecretsKeys);
  const channels = new ChannelService({ db: core.db, logger: core.logger, config: channelConfig, bots, files: attachments, singleProcess, turns: () => turns, box: secrets });
  const presences = new OperatorPresences(core.db, core.config.presence);
  const waitingEmails = new WaitingEmails(core.db, core.logger, core.config.waitingEmail, core.config.publicUrls[0]);
  const handoff = new HandoffService(core.db, queueOperatorReplies(conversations.writer, channels.outbox), core.handoffBus, new HandoffSettingsService(core.db, bots, presences), attachments, core.config.streamHeartbeatMs);
  const assignments = new Assignments(core.db, handoff, presences, core.logger);
  handoff.assigner = assignments;
  // Models an NLU upgrade left outdated answer with the fallback until retrained here, bots first.
  const upgrade = new AbortController();
  const retraining = bots
    .retrainOutdated(upgrade.signal)
    .then(() => (upgrade.signal.aborted ? 0 : trainingJobs.retrainOutdated()))
    .then(
      () => {},
      (error: unknown) => core.logger.error('models not retrained after an upgrade', { error: String(error) }),
    );
  const webhooks = new WebhookService(core.db, resolveWebhookConfig(core.config.webhooks), core.logger, secrets);
  const services: Omit<Services, 'turns' | 'channels'> = {
    knowledge: new KnowledgeService(core.db, await openSemanticKnowledge(core.db, core.config.embeddings, core.logger)),
    nlu,
    conversations,
    bots,
    agents: new AgentService(core.db, nlu),
    trainingJobs,
    llm: createLlmProvider(core.config.llm),
    analytics: new AnalyticsReports(core.db, core.usage),
    knowledgeImports: new KnowledgeImports(core.db, importJobs, core.config.imports),
    importJobs,
    feedback: new FeedbackService(core.db),
    csat: new CsatService(core.db, handoff),
    handoff,
    inbox: new InboxService(core.db, handoff),
    presences,
    assignments,
    waitingEmails,
    offlineMessages: new OfflineMessages(core.db, core.config.waitingEmail),
    attachments,
    webhooks,
    cannedReplies: new CannedReplyService(core.db),
    widgetTokens: await WidgetTokens.open(core.db, core.config.widgetTokens),
    nluUpgrade: {
      done: retraining,
      stop: () => {
        upgrade.abort();
        return retraining;
      },
    },
  };
  const turns = new TurnPipeline({ db: core.db, ...services, handoffTurns: new HandoffTurns(handoff), llmImages: core.config.llm?.images });
  await channels.start();
  await webhooks.start();
  waitingEmails.start();
  return { ...services, turns, channels };
}

/** Stops background work (training workers, timers) before the database closes. */
export async function closeServices(services: Services): Promise<void> {
  await services.channels.close(); // its running turns finish before the services they use stop
  await services.webhooks.close();
  await services.waitingEmails.close();
  services.offlineMessages.close();
  await services.nluUpgrade.stop();
  await services.trainingJobs.close(); // let running jobs record their outcome before the NLU stops
  await services.importJobs.close();
  await services.knowledge.semantic?.close();
  await services.nlu.close();
}
