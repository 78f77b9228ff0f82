/** `AiChatClient`: the typed client for the v1 service, for browsers and Node (no runtime dependencies). */
import { HttpCore } from './http.js';
import type { ClientOptions } from './options.js';
import { AgentsResource } from './resources/agents.js';
import { AnalyticsResource } from './resources/analytics.js';
import { BotsResource } from './resources/bots.js';
import { ChatResource } from './resources/chat.js';
import { ConversationsResource } from './resources/conversations.js';
import { KnowledgeResource } from './resources/knowledge.js';
import type { RateLimitInfo } from './types.js';

/**
 * One client per credential. Every method resolves with an `ApiResult` (`data`, `meta`,
 * `rateLimit`, `status`) or rejects with an `AiChatError` subclass; see `errors.ts`.
 *
 * @example
 * const client = new AiChatClient({ baseUrl: 'https://api.example.com/v1', apiKey });
 * const { data: bot } = await client.bots.create({ name: 'Support' });
 */
export class AiChatClient {
  /** Base URL requests go to (version segment included, no trailing slash). */
  readonly baseUrl: string;
  readonly bots: BotsResource;
  readonly chat: ChatResource;
  readonly conversations: ConversationsResource;
  readonly agents: AgentsResource;
  readonly knowledge: KnowledgeResource;
  readonly analytics: AnalyticsResource;
  private readonly core: HttpCore;

  constructor(options: ClientOptions = {}) {
    this.core = new HttpCore(options);
    this.baseUrl = this.core.baseUrl;
    this.bots = new BotsResource(this.core);
    this.chat = new ChatResource(this.core);
    this.conversations = new ConversationsResource(this.core);
    this.agents = new AgentsResource(this.core);
    this.knowledge = new KnowledgeResource(this.core);
    this.analytics = new AnalyticsResource(this.core);
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
