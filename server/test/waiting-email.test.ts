// Email to the team about a conversation nobody took in time, sent over SMTP to a local test server
// (smtp-server on loopback), on a clock the test moves: nothing before the minutes are up, one email
// to every teammate once they are, never twice for one waiting spell, none for a conversation taken
// in time, a failed send tried again at the next poll, and one email from two instances polling at once.
// PGlite by default; PostgreSQL + Redis with `source /tmp/testdb.env`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { TestClock } from './support/channels.ts';
import type { TestClient } from './support/core.ts';
import type { DashboardClient } from './support/dashboard.ts';
import { handoffSetup, openStream, startConversation, type LiveStream } from './support/handoff.ts';
import { startTestSmtp, type Mail, type TestSmtp } from './support/smtp.ts';
import { createTestService, sharedServices, TEST_DATABASE_URL } from './support/test-database.ts';

const MINUTE = 60_000;
const clock = new TestClock();
let smtp: TestSmtp;
let mails: Mail[];

let service: Service;
let api: TestClient;
let operator: DashboardClient;
let botId: string;
let dashboard: LiveStream;
let users = 0;

async function waitingConversation(): Promise<string> {
  const user = `email-visitor-${++users}`;
  const conversationId = await startConversation(api, botId, user);
  const asked = await api.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: user } });
  assert.equal(asked.res.status, 200, JSON.stringify(asked.body));
  return conversationId;
}

before(async () => {
  smtp = await startTestSmtp();
  mails = smtp.mails;
  service = await createTestService({
    publicUrls: ['https://chat.example.test'],
    // a poll an hour: the test runs each poll itself
    waitingEmail: { smtpUrl: smtp.url, from: 'Support bot <bot@example.test>', afterMinutes: 5, pollMs: 3_600_000, now: clock.now },
  });
  ({ api, operator, botId } = await handoffSetup(service));
  dashboard = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` });
});
after(async () => {
  await dashboard?.close();
  await service?.close();
  await smtp?.close();
});

describe('waiting conversation emails', () => {
  it('one email to the team once nobody took a conversation within the minutes, never twice', async () => {
    const conversationId = await waitingConversation();
    const taken = await waitingConversation();
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${taken}/take`)).status, 200);

    clock.advance(4 * MINUTE);
    assert.equal(await service.deps.waitingEmails.runOnce(), 0, 'not yet five minutes');
    clock.advance(2 * MINUTE);
    assert.equal(await service.deps.waitingEmails.runOnce(), 1, 'the untaken one only');
    assert.equal(mails.length, 1);
    const [mail] = mails;
    const email = (await operator.call('GET', '/dashboard/api/me')).body.data.user.email;
    assert.deepEqual(mail!.to, [email]);
    assert.match(mail!.body, /^Subject: A visitor has waited 5 min for a person$/m);
    assert.match(mail!.body, /^From: Support bot <bot@example\.test>$/m);
    assert.ok(mail!.body.includes(conversationId));
    assert.ok(mail!.body.includes('https://chat.example.test/dashboard/#/inbox'));

    clock.advance(10 * MINUTE);
    assert.equal(await service.deps.waitingEmails.runOnce(), 0, 'one email per waiting spell');
    assert.equal(mails.length, 1);
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
  });

  it('a send the SMTP server refused is tried again at the next poll', async () => {
    const conversationId = await waitingConversation();
    clock.advance(6 * MINUTE);
    smtp.refuse = true;
    assert.equal(await service.deps.waitingEmails.runOnce(), 0);
    smtp.refuse = false;
    assert.equal(mails.length, 1, 'nothing accepted while refused');
    assert.equal(await service.deps.waitingEmails.runOnce(), 1, 'the claim was given back');
    assert.ok(mails[1]!.body.includes(conversationId));
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
  });
});

describe('waiting conversation emails on two instances (PostgreSQL)', () => {
  it('both poll at once: one email', { skip: TEST_DATABASE_URL ? false : 'needs a shared PostgreSQL: set AI_CHAT_TEST_DATABASE_URL' }, async () => {
    const waitingEmail = { smtpUrl: smtp.url, afterMinutes: 5, pollMs: 3_600_000, now: clock.now };
    const shared = await sharedServices(2, { waitingEmail });
    try {
      const [a, b] = shared.instances as [Service, Service];
      const setup = await handoffSetup(a);
      const inbox = await openStream(a.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${setup.operator.cookie}` });
      try {
        const conversationId = await startConversation(setup.api, setup.botId, 'two-instances-visitor');
        assert.equal((await setup.api.json(`/v1/conversations/${conversationId}/handoff`, { method: 'POST', body: { user_id: 'two-instances-visitor' } })).res.status, 200);
        clock.advance(6 * MINUTE);
        const before = mails.length;
        const sent = await Promise.all([a.deps.waitingEmails.runOnce(), b.deps.waitingEmails.runOnce()]);
        assert.equal(sent[0] + sent[1], 1);
        assert.equal(mails.length, before + 1);
        assert.ok(mails.at(-1)!.body.includes(conversationId));
      } finally {
        await inbox.close();
        await a.deps.handoff.closingStreams.closed();
      }
    } finally {
      await shared.close();
    }
  });
});
