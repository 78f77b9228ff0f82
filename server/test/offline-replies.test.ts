// Answering an offline message by email from the inbox, against a local SMTP test server: the
// visitor's address gets exactly the email (From the sender, Reply-To the operator), the message is
// marked answered (who, when) and a second answer is 409; a CR/LF in the subject starts no header;
// another account's message is 404; a refused send gives the claim back; without SMTP, 503.
// PGlite by default; PostgreSQL + Redis with AI_CHAT_TEST_DATABASE_URL / AI_CHAT_TEST_REDIS_URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import type { TestClient } from './support/core.ts';
import { DashboardClient, uniqueEmail } from './support/dashboard.ts';
import { handoffSetup, startConversation } from './support/handoff.ts';
import { startTestSmtp, type TestSmtp } from './support/smtp.ts';
import { createTestService } from './support/test-database.ts';

let smtp: TestSmtp;
let service: Service;
let api: TestClient;
let operator: DashboardClient;
let operatorEmail: string;
let botId: string;
let visitors = 0;

/** A visitor's message left for a reply by email; its id. */
async function offlineMessage(email = 'visitor@example.test'): Promise<string> {
  const user = `offline-visitor-${++visitors}`;
  const conversationId = await startConversation(api, botId, user);
  const left = await api.json(`/v1/conversations/${conversationId}/handoff/offline-messages`, { method: 'POST', body: { user_id: user, email, message: 'Where is my parcel?' } });
  assert.equal(left.res.status, 201, JSON.stringify(left.body));
  return left.body.data.id;
}

type Listed = { id: string; answered_at: string | null; answered_by: { id: string; name: string } | null };
/** A mail's headers, each on one line (a long one comes folded). */
const headersOf = (body: string) => body.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
const answer = (id: string, body: unknown, client = operator) => client.call('POST', `/dashboard/api/inbox/offline-messages/${id}/reply`, { body });
const listed = async (id: string) => ((await operator.call('GET', '/dashboard/api/inbox/offline-messages')).body.data.items as Listed[]).find((m) => m.id === id);

before(async () => {
  smtp = await startTestSmtp();
  service = await createTestService({ dashboard: { signup: 'open' }, waitingEmail: { smtpUrl: smtp.url, from: 'Support <support@example.test>', pollMs: 3_600_000 } });
  ({ api, operator, botId } = await handoffSetup(service));
  operatorEmail = (await operator.call('GET', '/dashboard/api/me')).body.data.user.email;
});
after(async () => {
  await service?.close();
  await smtp?.close();
});

describe('answering an offline message by email', () => {
  it('sends exactly the email to the visitor, Reply-To the operator, and marks it answered once', async () => {
    const id = await offlineMessage('visitor@example.test');
    const unanswered = await listed(id);
    assert.deepEqual([unanswered?.answered_at, unanswered?.answered_by], [null, null]);
    const before = smtp.mails.length;

    const sent = await answer(id, { subject: 'Your parcel', text: 'It left our warehouse today.' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(smtp.mails.length, before + 1);
    const mail = smtp.mails.at(-1)!;
    assert.deepEqual(mail.to, ['visitor@example.test']);
    const headers = headersOf(mail.body);
    assert.match(headers, /^From: Support <support@example\.test>$/m);
    assert.match(headers, new RegExp(`^Reply-To: .*<${operatorEmail.replace(/[.+]/g, '\\$&')}>$`, 'm'));
    assert.match(headers, /^To: visitor@example\.test$/m);
    assert.match(headers, /^Subject: Your parcel$/m);
    assert.ok(mail.body.includes('It left our warehouse today.'));

    const { answered_at, answered_by } = sent.body.data;
    assert.ok(Date.parse(answered_at) > 0);
    assert.equal(answered_by.name, operatorEmail.split('@')[0]);
    assert.deepEqual(await listed(id), sent.body.data);

    // a teammate answering the same message: refused, nothing sent
    const teammate = await answer(id, { subject: 'Your parcel', text: 'Again' });
    assert.equal(teammate.status, 409);
    assert.equal(teammate.body.error.code, 'offline_message_answered');
    assert.equal(smtp.mails.length, before + 1);
  });

  it('a CR/LF in the subject starts no header and adds no recipient', async () => {
    const id = await offlineMessage();
    const sent = await answer(id, { subject: 'Hello\r\nBcc: attacker@example.test\r\nX-Injected: yes', text: 'Body' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const mail = smtp.mails.at(-1)!;
    assert.deepEqual(mail.to, ['visitor@example.test']);
    const headers = headersOf(mail.body);
    assert.doesNotMatch(headers, /^(Bcc|X-Injected):/im);
    assert.match(headers, /^Subject: Hello +Bcc: attacker@example\.test +X-Injected: yes$/m);
  });

  it('refuses bad input, another account\'s message and no session, sending nothing', async () => {
    const id = await offlineMessage();
    const before = smtp.mails.length;
    for (const body of [{ subject: 'Hi', text: 'x'.repeat(10_001) }, { subject: ' ', text: 'Hi' }, { subject: 'Hi' }, { subject: 'x'.repeat(201), text: 'Hi' }]) {
      const refused = await answer(id, body);
      assert.equal(refused.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(refused.body.error.code, 'validation_failed');
    }
    const stranger = new DashboardClient(service);
    assert.equal((await stranger.signUp(uniqueEmail('stranger'), undefined, { account_name: 'Other' })).status, 201);
    const theirs = await answer(id, { subject: 'Hi', text: 'Hi' }, stranger);
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.code, 'resource_not_found');
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/offline-messages/${id}/reply`, { body: { subject: 'Hi', text: 'Hi' }, cookie: null })).status, 401);
    assert.equal((await answer('ofm_doesnotexist1', { subject: 'Hi', text: 'Hi' })).status, 404);
    assert.equal(smtp.mails.length, before);
    assert.equal((await listed(id))?.answered_at, null);
  });

  it('a send the SMTP server refused is 502 and gives the claim back', async () => {
    const id = await offlineMessage();
    smtp.refuse = true;
    const refused = await answer(id, { subject: 'Hi', text: 'Hi' }).finally(() => (smtp.refuse = false));
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'email_not_sent');
    assert.equal((await listed(id))?.answered_at, null);
    assert.equal((await answer(id, { subject: 'Hi', text: 'Hi' })).status, 200);
  });
});

describe('answering an offline message without SMTP', () => {
  it('is 503 email_not_configured, and the message stays unanswered', async () => {
    const bare = await createTestService();
    try {
      const setup = await handoffSetup(bare);
      const conversationId = await startConversation(setup.api, setup.botId, 'no-smtp-visitor');
      const left = await setup.api.json(`/v1/conversations/${conversationId}/handoff/offline-messages`, { method: 'POST', body: { user_id: 'no-smtp-visitor', email: 'v@example.test', message: 'Hi' } });
      const res = await setup.operator.call('POST', `/dashboard/api/inbox/offline-messages/${left.body.data.id}/reply`, { body: { subject: 'Hi', text: 'Hi' } });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'email_not_configured');
      const items = (await setup.operator.call('GET', '/dashboard/api/inbox/offline-messages')).body.data.items;
      assert.equal(items[0].answered_at, null);
    } finally {
      await bare.close();
    }
  });
});
