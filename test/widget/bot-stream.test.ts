// A widget that names a bot streams its replies from the bot endpoint (`stream: true` there) like a
// widget without one streams from /v1/chat: one way to ask for a reply, whichever endpoint answers.
import { expect, oneEvent } from '@open-wc/testing';
import { $$, baseUrl, clearWidgetStorage, createBot, faultBaseUrl, historyOf, mount, newApiKey } from './helpers.js';

describe('<ai-chat-widget bot-id stream>', () => {
  beforeEach(clearWidgetStorage);

  it('streams the bot reply and ends with the stored turn, suggestions and all', async () => {
    const apiKey = await newApiKey();
    const botId = await createBot(apiKey);
    const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, 'api-key': apiKey, 'bot-id': botId, stream: true });
    await ready;
    const reply = await el.send('hello');
    expect(reply!.content).to.equal('Hello! How can I **help** you today?');
    await el.updateComplete;
    expect($$(el, '[part~="suggestion"]').map((b) => b.textContent!.trim())).to.deep.equal(['Opening hours', 'Pricing']);
    const stored = await historyOf(apiKey, { conversation_id: el.conversationId! });
    expect(stored.map((m) => m.content)).to.deep.equal(['hello', reply!.content]);
    // the user message carries what the server stored for it, as a whole bot reply does
    expect(el.messages[0]!.serverId).to.equal(stored[0]!.id);
    expect(el.messages.map((m) => m.status)).to.deep.equal(['sent', 'sent']);
  });

  it('reads the bot endpoint as a stream: an error frame mid-stream is the error it reports', async () => {
    const apiKey = await newApiKey();
    const botId = await createBot(apiKey);
    const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl('sse-error'), 'api-key': apiKey, 'bot-id': botId, stream: true });
    await ready;
    const error = oneEvent(el, 'ai-chat-error');
    expect(await el.send('hello')).to.equal(null);
    expect((await error).detail.code).to.equal('upstream_error');
    await el.updateComplete;
    expect(el.messages.map((m) => [m.role, m.status])).to.deep.equal([['user', 'failed']]);
  });
});
