// Assignment in the inbox against the real service in real Chromium: the owner assigns a waiting
// conversation to a teammate (offline at that moment: allowed by hand), every inbox shows whose it
// is, and the teammate's own inbox lists it under "Mine" and not under "Unassigned". axe finds nothing.
import { expect, fixture, html } from '@open-wc/testing';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/pages/inbox-page.js';
import type { AicdInboxPage } from '../../src/dashboard/pages/inbox-page.js';
import { askForPerson, button, deep, deepAll, deepText, operatorWithHandoffBot, signOut, until } from './helpers.js';

const PASSWORD = 'correct horse battery';

describe('aicd-inbox-page: assignment', () => {
  after(signOut);

  it('assigns a conversation to a teammate, whose inbox shows it as Mine', async () => {
    const { api: owner, visitor, botId } = await operatorWithHandoffBot('Assign');
    const ownerEmail = (await owner.me())!.user.email;
    const { token } = await owner.createInvite();
    const teammateEmail = `bob.${Date.now()}@example.test`;
    const teammate = new DashboardApi();
    await teammate.signUp({ email: teammateEmail, password: PASSWORD, invite: token }); // the browser's session is Bob's now
    const bob = teammateEmail.split('@')[0]!;
    await teammate.signOut();
    await owner.signIn(ownerEmail, PASSWORD);

    const user = 'assign-visitor';
    const { data: first } = await visitor.bots.sendMessage(botId, { message: 'Where is my parcel?', user_id: user });
    const ownerInbox = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${owner}></aicd-inbox-page>`);
    await until(() => deepText(ownerInbox).includes('Nobody is waiting'), 'the empty inbox');
    await askForPerson(visitor, first.conversation_id, user);
    (await until(() => button(ownerInbox, `Open the conversation with ${user}`), 'the waiting conversation')).click();

    const select = await until(() => deep<HTMLSelectElement>(ownerInbox, 'select#assign-to'), 'the teammate picker');
    const option = await until(() => [...select.options].find((o) => o.textContent!.startsWith(`${bob} (offline`)), 'Bob among the teammates');
    select.value = option.value;
    select.dispatchEvent(new Event('change'));
    await expect(ownerInbox).to.be.accessible();
    (await until(() => button(ownerInbox, 'Assign')?.disabled === false && button(ownerInbox, 'Assign'), 'the enabled Assign button')).click();
    // heard on the inbox stream: the list and the open conversation name Bob
    await until(() => deepAll(ownerInbox, '.queue .who').some((p) => p.textContent === `With ${bob} · ${user}`), 'the list naming Bob');
    await until(() => deepText(ownerInbox).includes(`Assigned to ${bob}.`), 'the conversation naming Bob');
    expect((await visitor.handoff.state(first.conversation_id, { user_id: user })).data.operator?.name).to.equal(bob);
    button(ownerInbox, 'Mine')!.click();
    await until(() => deepText(ownerInbox).includes('You hold no conversation.'), "not the owner's");
    ownerInbox.remove();

    await owner.signOut();
    await teammate.signIn(teammateEmail, PASSWORD);
    const bobInbox = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${teammate}></aicd-inbox-page>`);
    await until(() => deepAll(bobInbox, '.queue .who').some((p) => p.textContent === `With you · ${user}`), "Bob's inbox");
    button(bobInbox, 'Mine')!.click();
    await until(() => button(bobInbox, 'Mine')!.getAttribute('aria-pressed') === 'true', 'Mine chosen');
    expect(deepAll(bobInbox, '.queue .who').map((p) => p.textContent)).to.deep.equal([`With you · ${user}`]);
    button(bobInbox, 'Unassigned')!.click();
    await until(() => deepText(bobInbox).includes('Nobody is waiting.'), 'nothing unassigned');
    await expect(bobInbox).to.be.accessible();
  });

  it('turns automatic assignment on with a capacity: a visitor who asks is given to the online operator', async () => {
    const { api, visitor, botId } = await operatorWithHandoffBot('Auto');
    const el = await fixture<AicdInboxPage>(html`<aicd-inbox-page .api=${api}></aicd-inbox-page>`);
    const auto = await until(() => deep<HTMLInputElement>(el, 'input#auto-assign'), 'the setting');
    const capacity = await until(() => deep<HTMLInputElement>(el, 'input[type="number"]'), "the operator's capacity");
    expect([auto.checked, capacity.value]).to.deep.equal([false, '5']);
    auto.click();
    capacity.value = '2';
    capacity.dispatchEvent(new Event('input'));
    button(el, 'Save assignment')!.click();
    await until(() => deepText(el).includes('Saved: waiting conversations are assigned automatically.'), 'the save');
    const { data } = await api.client.assignment.settings();
    expect([data.auto, data.operators.map((o) => o.capacity)]).to.deep.equal([true, [2]]);
    await expect(el).to.be.accessible();

    const user = 'auto-visitor';
    const { data: first } = await visitor.bots.sendMessage(botId, { message: 'Hello?', user_id: user });
    await askForPerson(visitor, first.conversation_id, user);
    await until(() => deepAll(el, '.queue .who').some((p) => p.textContent === `With you · ${user}`), 'assigned to the operator by itself');
  });
});
