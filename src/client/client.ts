/** `AiChatClient`: the typed client for the v1 service, for browsers and Node (no runtime dependencies). */
import { HttpCore } from './http.js';
import type { ClientOptions } from './options.js';
import { AgentsResource } from './resources/agents.js';
import { AnalyticsResource } from './resources/analytics.js';
import { AttachmentsResource } from './resources/attachments.js';
import { BotsResource } from './resources/bots.js';
import { CannedRepliesResource } from './resources/canned-replies.js';
import { AssignmentResource } from './resources/assignment.js';
import { ChannelsResource } from './resources/channels.js';
import { ChatResource } from './resources/chat.js';
import { ConversationsResource } from './resources/conversations.js';
import { CsatResource } from './resources/csat.js';
import { FeedbackResource } from './resources/feedback.js';
import { HandoffResource } from './resources/handoff.js';
import { KnowledgeResource } from './resources/knowledge.js';
import { WebhooksResource } from './resources/webhooks.js';
import type { RateLimitInfo } from './types.js';

/**
 * What every client over one credential has: the HTTP core, its base URL, the last rate-limit
 * headers and the held token. A client of fewer resources (the widget's, `src/widget/connection/widget-client.ts`)
 * extends it too, so a bundle carries the code of the resources it names and no others.
 */
export class ClientBase {
  /** Base URL requests go to (version segment included, no trailing slash). */
  readonly baseUrl: string;
  protected readonly core: HttpCore;

  constructor(options: ClientOptions = {}) {
    this.core = new HttpCore(options);
    this.baseUrl = this.core.baseUrl;
  }

  /** Last `X-RateLimit-*` seen on any response (null before the first). */
  get rateLimit(): RateLimitInfo | null {
    return this.core.rateLimit;
  }

  /** Replaces the held token (undefined: forget it; with `getToken` set, the next call asks again). */
  setToken(token: string | undefined): void {
    this.core.setToken(token);
  }
}

/**
 * One client per credential. Every method resolves with an `ApiResult` (`data`, `meta`,
 * `rateLimit`, `status`) or rejects with an `AiChatError` subclass; see `errors.ts`.
 *
 * @example
 * const client = new AiChatClient({ baseUrl: 'https://api.example.com/v1', apiKey });
 * const { data: bot } = await client.bots.create({ name: 'Support' });
 */
export class AiChatClient extends ClientBase {
  readonly bots = new BotsResource(this.core);
  readonly chat = new ChatResource(this.core);
  readonly conversations = new ConversationsResource(this.core);
  readonly agents = new AgentsResource(this.core);
  readonly knowledge = new KnowledgeResource(this.core);
  readonly analytics = new AnalyticsResource(this.core);
  readonly feedback = new FeedbackResource(this.core);
  /** Satisfaction (CSAT): a conversation's 1–5 rating, and when the widget asks for it. */
  readonly csat = new CsatResource(this.core);
  /** Human handoff: settings, state, asking for a person, and the live events (`events()`). */
  readonly handoff = new HandoffResource(this.core);
  /** Files sent with messages: upload (with progress), download, remove before sending. */
  readonly attachments = new AttachmentsResource(this.core);
  /** Outgoing webhooks: subscriptions, the delivery log, redelivery, a test event. */
  readonly webhooks = new WebhooksResource(this.core);
  /** A bot on messaging platforms: connect, health, a test message, disconnect. */
  readonly channels = new ChannelsResource(this.core);
  /** The texts a team inserts in the inbox by shortcut. */
  readonly cannedReplies = new CannedRepliesResource(this.core);
  /** Who gets which conversation: assign, transfer, unassign, and automatic assignment. */
  readonly assignment = new AssignmentResource(this.core);
}
