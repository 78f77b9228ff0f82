// The Team page's presence, live against the real service in real Chromium: while the owner's Team
// page is open, a teammate opens a dashboard (online), chooses away, and closes it (offline); the
// owner's page shows each change without a reload, over the one inbox stream it shares with the
// shell (inbox-stream.ts): the page opens no second stream.
import { expect, fixture, html } from '@open-wc/testing';
import { DashboardApi } from '../../src/dashboard/api.js';
import '../../src/dashboard/pages/team-page.js';
import type { AicdTeamPage } from '../../src/dashboard/pages/team-page.js';
import { followInbox } from '../../src/dashboard/inbox-stream.js';
import { deepAll, signOut, until } from './helpers.js';

const PASSWORD = 'correct horse battery';

/** The Status cell of `email`'s row. */
const statusOf = (page: Element, email: string) => deepAll(page, 'tbody tr').find((tr) => tr.children[0]!.textContent!.startsWith(email))?.children[2]?.textContent?.trim();

describe('aicd-team-page: presence', () => {
  after(signOut);

  it("follows a teammate's presence live, over the dashboard's one inbox stream", async function () {
    this.timeout(30_000);
    const owner = new DashboardApi();
    const ownerEmail = `owner.${Date.now()}@example.test`;
    await owner.signUp({ email: ownerEmail, password: PASSWORD, account_name: 'Team' });
    const { token } = await owner.createInvite();
    const mateEmail = `mate.${Date.now()}@example.test`;
    const mate = new DashboardApi();
    await mate.signUp({ email: mateEmail, password: PASSWORD, invite: token }); // the browser's session is the teammate's now
    await mate.signOut();
    await owner.signIn(ownerEmail, PASSWORD);

    // the shell's follower (the operator bar) is there first; the page joins its stream
    const opened: string[] = [];
    const ownerStreams = owner.inboxEvents.bind(owner);
    owner.inboxEvents = (options) => (opened.push('stream'), ownerStreams(options));
    let shellReady!: () => void;
    const connected = new Promise<void>((resolve) => (shellReady = resolve));
    const unfollowShell = followInbox(owner, { ready: () => shellReady() });
    await connected;
    const page = await fixture<AicdTeamPage>(html`<aicd-team-page .api=${owner} .session=${(await owner.me())!}></aicd-team-page>`);
    await until(() => statusOf(page, mateEmail) === 'Offline', 'the teammate offline');

    // the teammate's session from here on (the owner's open stream keeps the owner's)
    await mate.signIn(mateEmail, PASSWORD);
    const stopMate = new AbortController();
    void (async () => {
      for await (const _ of mate.inboxEvents({ signal: stopMate.signal })) void _;
    })().catch(() => {});
    await until(() => statusOf(page, mateEmail) === 'Online', 'the teammate online, without a reload');
    await mate.setPresence('away');
    await until(() => statusOf(page, mateEmail) === 'Away', 'the teammate away');
    stopMate.abort();
    await until(() => statusOf(page, mateEmail) === 'Offline', 'the teammate offline again');

    expect(opened, 'one stream for the shell and the page').to.deep.equal(['stream']);
    page.remove();
    unfollowShell();
  });
});
