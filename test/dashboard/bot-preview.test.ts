// The bot editor's preview against the real service in real Chromium, signed in as the dashboard
// is: the real <ai-chat-widget> talks to the real bot through the session passthrough, its
// conversation is stored (and readable) but is a test one, so the analytics count none of it.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/pages/bot-editor.js';
import type { AicdBotEditor } from '../../src/dashboard/pages/bot-editor.js';
import type { AiChatWidget } from '../../src/element.js';
import { deep, deepAll, signOut, until } from './helpers.js';

describe('the bot editor preview', () => {
  after(signOut);

  it('answers through the session as the real widget, and its chat counts in no report', async () => {
    const api = new DashboardApi();
    await api.signUp({ email: `preview.${Date.now()}@example.test`, password: 'correct horse battery', account_name: 'Preview' });
    const { data: bot } = await api.client.bots.create({
      name: 'Shop',
      quick_replies: ['Opening hours'],
      training: { intents: [{ name: 'hours', examples: ['opening hours', 'when are you open'], responses: ['We are open 9 to 5.'] }] },
    });
    const el = await fixture<AicdBotEditor>(html`<aicd-bot-editor .client=${api.client} .botId=${bot.id} .csrfToken=${api.csrfToken}></aicd-bot-editor>`);
    const widget = await until(() => deep<AiChatWidget>(el, 'ai-chat-widget'), 'the preview widget');
    expect(widget.baseUrl).to.equal('/dashboard/api/v1');
    // the bot's own settings: its quick replies, read by the widget from the bot
    await until(() => deepAll(widget, 'button').find((b) => b.textContent!.trim() === 'Opening hours'), 'the bot\'s quick replies');

    const input = await until(() => deep<HTMLTextAreaElement>(widget, 'textarea[part="input"]'), 'the widget\'s input');
    input.focus();
    await sendKeys({ type: 'when are you open' });
    await sendKeys({ press: 'Enter' });
    await until(() => deepAll(widget, '[part~="message-assistant"]').find((m) => m.textContent!.includes('We are open 9 to 5.')), 'the bot\'s answer');

    const stored = (await api.client.conversations.list({ bot_id: bot.id })).data.items;
    expect(stored).to.have.length(1);
    const today = new Date().toISOString().slice(0, 10);
    const usage = (await api.client.analytics.usage({ from: today, to: today, granularity: 'day' })).data;
    expect(usage.totals).to.include({ conversations: 0, messages: 0 });
    const performance = (await api.client.analytics.performance({ from: today, to: today, bot_id: bot.id })).data;
    expect(performance).to.include({ replies: 0, conversations: 0 });
  });
});
