// `ChatController.status`: the one value the view reads (instead of flags it combined itself), on
// a headless host against the real service. Each host update records the status, so the test sees
// every state a render would have shown.
import { expect } from '@open-wc/testing';
import { LitElement } from 'lit';
import { ChatController, type ChatConfig, type ChatStatus } from '../../src/element.js';
import { baseUrl, clearWidgetStorage, faultBaseUrl, newApiKey, waitFor } from './helpers.js';

class StatusHost extends LitElement {
  config: ChatConfig = {
    baseUrl,
    botId: '',
    userId: '',
    stream: false,
    storage: 'local',
    instanceId: 'status',
    timeout: 0,
    apiKey: '',
    token: '',
    tokenUrl: '',
    tokenCredentials: 'same-origin',
    getToken: undefined,
  };
  readonly chat = new ChatController(this, () => this.config);
  /** Every status a render saw, without repeats. */
  seen: ChatStatus[] = [];

  protected override willUpdate(): void {
    const { status } = this.chat;
    if (this.seen[this.seen.length - 1] !== status) this.seen.push(status);
  }
}
customElements.define('chat-status-host', StatusHost);

/** A connected host; `ready` resolves with its `ai-chat-ready`. */
function connectHost(config: Partial<ChatConfig>): { host: StatusHost; ready: Promise<unknown> } {
  const host = document.createElement('chat-status-host') as StatusHost;
  host.config = { ...host.config, ...config };
  const ready = new Promise((resolve) => host.addEventListener('ai-chat-ready', resolve, { once: true }));
  document.body.append(host);
  return { host, ready };
}

async function mountHost(config: Partial<ChatConfig>): Promise<StatusHost> {
  const { host, ready } = connectHost(config);
  await ready;
  await host.updateComplete;
  return host;
}

describe('ChatController.status', () => {
  beforeEach(clearWidgetStorage);
  afterEach(() => {
    window.dispatchEvent(new Event('online'));
    for (const host of document.querySelectorAll('chat-status-host')) host.remove();
    clearWidgetStorage();
  });

  it('is idle when ready, sending while queued, awaiting-reply until the reply, then idle again', async () => {
    const host = await mountHost({ apiKey: await newApiKey() });
    expect(host.chat.status).to.equal('idle');
    host.seen = [];
    const reply = host.chat.send('hello there');
    expect(host.chat.status).to.equal('awaiting-reply'); // out at once: nothing was ahead of it
    expect(await reply).to.include({ role: 'assistant', status: 'sent' });
    await host.updateComplete;
    expect(host.chat.status).to.equal('idle');
    expect(host.seen).to.deep.equal(['awaiting-reply', 'idle']);
  });

  it('is restoring while the history loads, and sending while a message waits behind it', async () => {
    // every answer comes late, so the history load is long enough to send into
    const config = { apiKey: await newApiKey(), baseUrl: faultBaseUrl('slow/700') };
    const first = await mountHost(config);
    await first.chat.send('remember me');
    first.remove();

    const { host, ready } = connectHost(config);
    await waitFor(() => host.chat.status === 'restoring', 4000, 'the history load');
    const reply = host.chat.send('queued behind the history');
    expect(host.chat.status).to.equal('sending');
    await ready;
    expect(await reply).to.include({ role: 'assistant', status: 'sent' });
    await host.updateComplete;
    // (the first render, of the stored transcript, comes before the history load starts)
    const fromRestore = host.seen.slice(host.seen.indexOf('restoring'));
    expect(fromRestore).to.deep.equal(['restoring', 'sending', 'awaiting-reply', 'idle']);
    expect(host.chat.messages.map((m) => m.content)).to.include('remember me');
  });

  it('is offline between the browser\'s offline and online events, before anything else', async () => {
    const host = await mountHost({ apiKey: await newApiKey() });
    window.dispatchEvent(new Event('offline'));
    await host.updateComplete;
    expect(host.chat.status).to.equal('offline');
    window.dispatchEvent(new Event('online'));
    await host.updateComplete;
    expect(host.chat.status).to.equal('idle');
  });

  it('is rate-limited while a message waits for the window, with its end in rateLimitedUntil', async () => {
    const host = await mountHost({ apiKey: await newApiKey({ points: 1, duration_seconds: 60 }) });
    expect(await host.chat.send('one')).to.include({ role: 'assistant' });
    void host.chat.send('two'); // the last answer said the window is used up: it waits, unsent
    await waitFor(() => host.chat.status === 'rate-limited', 4000, 'the rate-limit wait');
    expect(host.chat.rateLimitedUntil).to.be.greaterThan(Date.now());
    host.chat.reset();
    expect(host.chat.status).to.equal('idle');
  });
});
