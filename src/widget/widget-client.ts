/**
 * The client the widget talks through: the chat, bot and feedback resources of `AiChatClient` and
 * nothing else. The resource classes are the client's own; building them on `ClientBase` instead of
 * instantiating `AiChatClient` keeps the admin resources (agents, knowledge, analytics,
 * conversations) out of the one-`<script>` bundle, about 0.3 KB gzip of its 30 KB budget.
 */
import { ClientBase } from '../client/client.js';
import { BotsResource } from '../client/resources/bots.js';
import { ChatResource } from '../client/resources/chat.js';
import { FeedbackResource } from '../client/resources/feedback.js';

export class WidgetClient extends ClientBase {
  readonly bots = new BotsResource(this.core);
  readonly chat = new ChatResource(this.core);
  /** The answers' thumbs up and down (message-actions.ts). */
  readonly feedback = new FeedbackResource(this.core);
}
