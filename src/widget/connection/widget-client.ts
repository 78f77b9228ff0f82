/**
 * The client the widget talks through: the visitor's side of `AiChatClient`'s chat and bots resources
 * (replies without streaming, which is an add-on: reply-stream.ts) and its feedback resource, nothing
 * else. The resource classes are the client's own; building them on `ClientBase` instead of
 * instantiating `AiChatClient` keeps the admin resources (agents, knowledge, analytics,
 * conversations) out of the one-`<script>` bundle, about 0.3 KB gzip of its 30 KB budget.
 */
import { ClientBase } from '../../client/client.js';
import type { HttpCore } from '../../client/http.js';
import { BotRepliesResource } from '../../client/resources/bots.js';
import { ChatRepliesResource } from '../../client/resources/chat.js';
import { FeedbackResource } from '../../client/resources/feedback.js';

export class WidgetClient extends ClientBase {
  readonly bots = new BotRepliesResource(this.core);
  readonly chat = new ChatRepliesResource(this.core);
  /** The HTTP core, for the streamed replies of the `stream` add-on. */
  get http(): HttpCore {
    return this.core;
  }
  /** The answers' thumbs up and down (message-actions.ts). */
  readonly feedback = new FeedbackResource(this.core);
}
