// Visitor context from the widget against the real service in real Chromium: a turn tells the page
// (origin and path: the query string and fragment stay home), the referrer, the browser's language
// and time zone, and what the page gave to `identify()`; `no-visitor-context` keeps the page part
// home and sends the traits only. What the service stored is read back as the inbox reads it.
import { expect } from '@open-wc/testing';
import type { InboxVisitor } from '../../src/client/index.js';
import type { DashboardApi } from '../../src/dashboard/api.js';
import { signOut } from '../dashboard/helpers.js';
import { operatorAndBot } from './handoff-support.js';
import { $, baseUrl, clearWidgetStorage, faultBaseUrl, mount, uniqueKey, waitFor } from './helpers.js';

const bare = (url: string) => (url ? new URL(url).origin + new URL(url).pathname : undefined);

async function storedAfterSend(api: DashboardApi, attrs: Record<string, string | boolean>, identify?: Parameters<HTMLElementTagNameMap['ai-chat-widget']['identify']>[0]): Promise<InboxVisitor> {
  const { el, ready } = await mount({ mode: 'inline', 'base-url': baseUrl, ...attrs });
  await ready;
  if (identify !== undefined) el.identify(identify);
  const reply = await el.send('hello');
  expect(reply, 'the reply').to.not.equal(null);
  return api.inboxVisitor(el.conversationId!);
}

describe('visitor context from <ai-chat-widget>', () => {
  let account: Awaited<ReturnType<typeof operatorAndBot>>;
  const page = location.href;

  before(async () => {
    account = await operatorAndBot();
  });
  after(signOut);
  beforeEach(clearWidgetStorage);
  afterEach(() => {
    clearWidgetStorage();
    history.replaceState(null, '', page);
  });

  it('sends the page without its query and fragment, the referrer, locale and time zone, to a bot', async () => {
    history.replaceState(null, '', `${location.pathname}?token=secret-in-query#access_token=secret`);
    const { visitor } = await storedAfterSend(account.api, { 'api-key': account.secret, 'bot-id': account.botId });
    expect(visitor).to.not.equal(null);
    expect(visitor!.page_url).to.equal(location.origin + location.pathname);
    expect(JSON.stringify(visitor)).to.not.include('secret');
    expect(visitor!.referrer).to.equal(bare(document.referrer));
    expect(visitor!.locale).to.equal(navigator.language);
    expect(visitor!.time_zone).to.equal(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(visitor!.name).to.equal(undefined);
  });

  it("sends identify()'s traits with the context, to the chat endpoint too, and identify(string) still switches the user", async () => {
    const { user_id, visitor } = await storedAfterSend(account.api, { 'api-key': account.secret }, { id: 'widget-visitor-7', name: 'Anna Muster', email: 'anna@example.com', plan: 'pro', seats: 3 });
    expect(user_id).to.equal('widget-visitor-7');
    expect(visitor!.name).to.equal('Anna Muster');
    expect(visitor!.email).to.equal('anna@example.com');
    expect(visitor!.attributes).to.deep.equal({ plan: 'pro', seats: 3 });
    expect(visitor!.verified).to.equal(undefined);
    expect(visitor!.page_url).to.equal(location.origin + location.pathname);

    const other = await storedAfterSend(account.api, { 'api-key': account.secret }, 'widget-visitor-8');
    expect(other.user_id).to.equal('widget-visitor-8');
    expect(other.visitor!.name).to.equal(undefined);
  });

  it('with no-visitor-context sends no page, referrer, locale or time zone: nothing at all without identify()', async () => {
    const none = await storedAfterSend(account.api, { 'api-key': account.secret, 'bot-id': account.botId, 'no-visitor-context': true });
    expect(none.visitor).to.equal(null);

    const traits = await storedAfterSend(account.api, { 'api-key': account.secret, 'bot-id': account.botId, 'no-visitor-context': true }, { name: 'Bo' });
    const { updated_at: _, ...told } = traits.visitor!;
    expect(told).to.deep.equal({ name: 'Bo' });
  });

  it('sends the same context again when a failed message is retried from another page (the same Idempotency-Key)', async () => {
    // the first answer is lost after the service stored the turn: the message fails; Retry then
    // gets the stored turn back only if its body is the very same one
    const key = uniqueKey('visitor-retry');
    const { el, ready } = await mount({ mode: 'inline', 'base-url': faultBaseUrl(`flaky/3/${key}/lost`), 'bot-id': account.botId }, { getToken: async () => account.secret });
    await ready;
    const original = window.fetch;
    const bodies: string[] = [];
    window.fetch = (input, init) => {
      if (init?.method === 'POST') {
        bodies.push(String(init.body));
        history.replaceState(null, '', `/elsewhere-${bodies.length}`); // the visitor moves on meanwhile
      }
      return original(input, init);
    };
    try {
      expect(await el.send('hello')).to.equal(null);
      expect(el.messages[0].status).to.equal('failed');
      $<HTMLButtonElement>(el, '[part~="retry-button"]').click();
      await waitFor(() => el.messages[0].status === 'sent' || el.messages[0].error, 8000, 'the retried message');
    } finally {
      window.fetch = original;
    }
    expect(el.messages[0].error).to.equal(undefined);
    expect(el.messages[0].status).to.equal('sent');
    expect(new Set(bodies).size, 'every attempt sent one body').to.equal(1);
    const { visitor } = await account.api.inboxVisitor(el.conversationId!);
    expect(visitor!.page_url).to.equal(new URL(page).origin + new URL(page).pathname);
  });

  it('reflects no-visitor-context as the noVisitorContext property', async () => {
    const { el } = await mount({ mode: 'inline', 'no-visitor-context': true });
    expect(el.noVisitorContext).to.equal(true);
    el.removeAttribute('no-visitor-context');
    expect(el.noVisitorContext).to.equal(false);
  });
});
