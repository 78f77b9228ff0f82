/**
 * Human handoff (docs/handoff.md) is an add-on (handoff.ts). What stays in the widget is this: it
 * loads the add-on when a reply carries a `handoff` state (every reply of a bot with handoff on
 * does), and for a conversation restored from before, asks the service whether the bot hands off.
 * A visitor who never writes costs no request. The satisfaction survey after a conversation the bot
 * answered alone (`BotSurvey`, in the csat add-on) starts here too, when the visitor closes the
 * panel, and renders with the handoff's part.
 */
import type { HandoffState } from '../../client/types.js';
import { AddonPart, loadAddon } from './loader.js';
import type { Handoff, HandoffChat, HandoffHost, HandoffOffer } from './handoff.js';
import type { BotSurvey } from './csat-survey.js';
import type { WidgetStrings } from '../locales/strings.js';

export class HandoffLoader extends AddonPart<'handoff', Handoff> {
  private readonly survey: AddonPart<'csat', BotSurvey>;

  constructor(
    host: HandoffHost,
    private readonly chat: HandoffChat,
  ) {
    super('handoff', ({ Handoff }) => new Handoff(host, chat, loadAddon));
    const survey = (this.survey = new AddonPart('csat', ({ BotSurvey }) => new BotSurvey(host, chat)));
    // built at the first close after a conversation started; it follows the later closes itself
    host.addEventListener('ai-chat-close', () => void (chat.conversationId && survey.load()));
  }

  /**
   * A restored conversation: with `bot-id`, the bot's handoff settings (the add-on if handoff is
   * on); without, the conversation's own state (the add-on if its bot hands off or a person is
   * involved: a token bound to a bot talks to it without `bot-id`). Best effort: no answer, no handoff.
   */
  async check(botId: string, conversationId: string): Promise<void> {
    try {
      // the routes by hand, not `HandoffResource`: that resource (with its SSE reader) is the
      // add-on's, and would otherwise ride in every page's bundle
      const { http } = await this.chat.getClient();
      const { data } = await http.request<HandoffOffer | HandoffState>(
        botId
          ? { method: 'GET', path: `/bots/${encodeURIComponent(botId)}/handoff` }
          : { method: 'GET', path: `/conversations/${encodeURIComponent(conversationId)}/handoff`, query: { user_id: this.chat.userId } },
        { maxRetries: 0 },
      );
      if ('status' in data) {
        if (data.status != 'bot' || data.unavailable_reason != 'disabled') this.seen(data);
      } else if (data.enabled || this.part) (await this.load())?.configure(data);
    } catch {
      // a host's own token may not reach the settings; the first handed-off reply still loads it
    }
  }

  /** A reply's `handoff` (the bot handed off, or could not). */
  seen(state: HandoffState | undefined): void {
    if (state) void this.load().then((part) => part?.apply(state));
  }

  render(s: WidgetStrings): unknown {
    return [this.part?.render(s), this.survey.part?.render(s)]; // nothing until loaded
  }
}
