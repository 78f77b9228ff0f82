// The operator's profile against the real service in real Chromium: on the Account page the
// operator sets the name and the https avatar visitors see (a non-https address and an over-long
// name are refused at their fields, with a preview of what is saved), then replies from the inbox;
// the visitor's widget shows that name and avatar on the reply. axe finds nothing.
import { expect, fixture, html } from '@open-wc/testing';
import type { AiChatWidget } from '../../src/element.js';
import '../../src/dashboard/pages/account-page.js';
import type { AicdAccountPage } from '../../src/dashboard/pages/account-page.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import { baseUrl, clearWidgetStorage, mount } from '../widget/helpers.js';
import { operatorAndBot, untilAvailable } from '../widget/handoff-support.js';
import { button, deep, deepAll, deepText, fill, signOut, until } from './helpers.js';

/** An https address on loopback nobody serves: the image never loads, and nothing leaves the machine. */
const AVATAR = 'https://127.0.0.1:9/anna.png';
const NAME = 'Anna from Support';

const fieldError = (root: Element, name: string) => deep(root, `#f-${name}-error`)?.textContent?.trim() ?? '';
const save = (root: Element) => button(root, 'Save profile')!.click();

describe('the operator profile', () => {
  beforeEach(clearWidgetStorage);
  afterEach(clearWidgetStorage);
  after(signOut);

  it('is set on the Account page and shown to the visitor on the operator reply', async function () {
    this.timeout(40_000);
    const { api, secret, botId, operator } = await operatorAndBot();
    const session = (await api.me())!;
    const account = await fixture<AicdAccountPage>(html`<aicd-account-page .api=${api} .session=${session}></aicd-account-page>`);
    await until(() => deep<HTMLInputElement>(account, '[name="display_name"]')?.value === operator.name, 'the profile loaded');

    // refused: a plain http avatar (checked before sending) and a name over the service's 80 characters
    await fill(account, 'avatar_url', 'http://127.0.0.1:9/anna.png');
    save(account);
    await until(() => fieldError(account, 'avatar_url').includes('https://'), 'the avatar refused at its field');
    await fill(account, 'avatar_url', AVATAR);
    await fill(account, 'display_name', 'A'.repeat(81));
    save(account);
    await until(() => fieldError(account, 'display_name'), "the service's refusal at the name");
    expect((await api.operatorProfile()).name, 'nothing saved').to.equal(operator.name);

    await fill(account, 'display_name', NAME);
    expect(deep<HTMLImageElement>(account, '.preview img')?.getAttribute('src'), 'the preview').to.equal(AVATAR);
    save(account);
    await until(() => deepText(account).includes('Profile saved.'), 'the saved notice');
    expect(fieldError(account, 'display_name')).to.equal('');
    expect(await api.operatorProfile()).to.include({ name: NAME, avatar_url: AVATAR });
    await expect(account).to.be.accessible();
    account.remove();

    // the inbox replies; the visitor's widget shows the new name and avatar
    const inbox = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    await until(() => deepText(inbox).includes('Nobody is waiting'), 'the empty inbox');
    await untilAvailable(api, botId);
    const { el, ready } = await mount({ mode: 'inline', 'api-key': secret, 'bot-id': botId, 'base-url': baseUrl, 'user-id': 'visitor-profile', storage: 'none' });
    await ready;
    await el.send('hello');
    (await until(() => el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="handoff-button"]'), 'Talk to a person')).click();
    (await until(() => button(inbox, 'Take the conversation with visitor-profile'), 'the waiting conversation')).click();
    const reply = await until(() => deepAll<HTMLTextAreaElement>(inbox, 'textarea#reply')[0], 'the reply box');
    await fill(inbox, 'reply', 'Hi, Anna here');
    expect(reply.value).to.equal('Hi, Anna here');
    button(inbox, 'Send')!.click();
    const row = await until(() => operatorRow(el), 'the operator reply in the widget');
    expect(row.querySelector('[part~="author"]')!.textContent!.trim()).to.equal(NAME);
    expect(row.querySelector<HTMLImageElement>('[part~="author"] img')?.getAttribute('src')).to.equal(AVATAR);
    expect(el.messages.at(-1)!.author).to.include({ name: NAME, avatar_url: AVATAR });
  });
});

function operatorRow(el: AiChatWidget): HTMLElement | undefined {
  return [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="message-operator"]')].find((r) => r.textContent!.includes('Hi, Anna here'));
}
