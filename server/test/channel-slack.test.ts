// Slack on the real service against a fake Slack Web API: Slack's documented signature example;
// requests too old, unsigned or signed with another secret refused (401, nothing stored); the URL
// check answered; a person's message answered in its thread, a bot's, an edit or the app's own
// message not; a retry of an event (X-Slack-Retry-Num) is one turn and one reply; a button press is
// the next message; an operator's reply from the inbox reaches the thread; a 429 waits Retry-After.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../src/index.ts';
import { plainText } from '../src/channels/slack/adapter.ts';
import { slackSignature, verifySlackSignature } from '../src/channels/signature.ts';
import { channelOptions, connectSlack, countRows, deliverSlack, slackMessage, slackPress, TestClock } from './support/channels.ts';
import { FAKE_SLACK, FakeSlack, startFakeSlack } from './support/fake-slack.ts';
import { openStream, handoffSetup, type LiveStream } from './support/handoff.ts';
import type { DashboardClient } from './support/dashboard.ts';
import type { TestClient } from './support/core.ts';
import { createTestService } from './support/test-database.ts';

// https://api.slack.com/authentication/verifying-requests-from-slack (the worked example)
const EXAMPLE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};

describe('X-Slack-Signature', () => {
  const body = new TextEncoder().encode(EXAMPLE.body);
  const at = Number(EXAMPLE.timestamp) * 1000;

  it('matches Slack\'s documented example', () => {
    assert.equal(slackSignature(EXAMPLE.secret, EXAMPLE.timestamp, body), EXAMPLE.signature);
    assert.equal(verifySlackSignature(EXAMPLE.signature, EXAMPLE.timestamp, EXAMPLE.secret, body, at), true);
  });

  it('refuses a timestamp more than 5 minutes from now, either way', () => {
    assert.equal(verifySlackSignature(EXAMPLE.signature, EXAMPLE.timestamp, EXAMPLE.secret, body, at + 300_000), true);
    assert.equal(verifySlackSignature(EXAMPLE.signature, EXAMPLE.timestamp, EXAMPLE.secret, body, at + 301_000), false);
    assert.equal(verifySlackSignature(EXAMPLE.signature, EXAMPLE.timestamp, EXAMPLE.secret, body, at - 301_000), false);
  });

  it('refuses another body, another secret, another timestamp, and malformed headers', () => {
    assert.equal(verifySlackSignature(EXAMPLE.signature, EXAMPLE.timestamp, EXAMPLE.secret, new TextEncoder().encode(`${EXAMPLE.body}x`), at), false);
    assert.equal(verifySlackSignature(EXAMPLE.signature, EXAMPLE.timestamp, 'another-signing-secret', body, at), false);
    assert.equal(verifySlackSignature(EXAMPLE.signature, '1531420619', EXAMPLE.secret, body, at), false);
    for (const header of [undefined, '', 'v0=', EXAMPLE.signature.slice(0, -2), `v1=${EXAMPLE.signature.slice(3)}`, `${EXAMPLE.signature}00`, EXAMPLE.signature.slice(3)]) {
      assert.equal(verifySlackSignature(header, EXAMPLE.timestamp, EXAMPLE.secret, body, at), false, String(header));
    }
    for (const timestamp of [undefined, '', 'now', '1531420618.5', '-1531420618']) {
      assert.equal(verifySlackSignature(EXAMPLE.signature, timestamp, EXAMPLE.secret, body, at), false, String(timestamp));
    }
  });
});

describe('Slack\'s message text', () => {
  it('is read as typed: escapes, mentions and links', () => {
    assert.equal(plainText('<@U1|ada> in <#C1|general>: 1 &lt; 2 &amp;&amp; 3 &gt; 2, see <https://ex.com/p?a=1&amp;b=2|pricing> or <https://ex.com> <!here>'), '@ada in #general: 1 < 2 && 3 > 2, see pricing (https://ex.com/p?a=1&b=2) or https://ex.com @here');
  });
});

const clock = new TestClock();
let slack: FakeSlack;
let service: Service;
let api: TestClient;
let operator: DashboardClient;
let inbox: LiveStream;
let botId: string;
let slackId: string;

before(async () => {
  slack = await startFakeSlack();
  service = await createTestService({ channels: channelOptions({ slack }, clock) });
  ({ api, operator, botId } = await handoffSetup(service, { intents: ['order.status'] }));
  inbox = await openStream(service.fetch, 'http://127.0.0.1/dashboard/api/inbox/events', { cookie: `aicw_session=${operator.cookie}` }); // an operator is online
  slackId = await connectSlack(api, botId);
});
after(async () => {
  inbox?.close();
  await service?.close();
  await slack?.close();
});

const inThread = (channel: string, threadTs: string) => slack.sent().filter((request) => request.body.channel === channel && request.body.thread_ts === threadTs);
const deliver = (body: unknown, options?: Parameters<typeof deliverSlack>[4]) => deliverSlack(service, slackId, body, clock, options);
const historyOf = async (channel: string, threadTs: string) => (await api.json(`/v1/chat/history?user_id=slack:${channel}:${threadTs}&bot_id=${botId}`)).body.data.items as { role: string; content: string; conversation_id: string }[];

describe('connecting', () => {
  it('stores the bot token and signing secret sealed, and never answers them', async () => {
    const { res, body } = await api.json(`/v1/bots/${botId}/channels/slack`);
    assert.equal(res.status, 200);
    assert.equal(body.data.type, 'slack');
    assert.equal(body.data.webhook_url, `http://127.0.0.1/v1/channels/slack/${slackId}`);
    assert.deepEqual(body.data.secrets_set, { bot_token: true, signing_secret: true });
    const rows = JSON.stringify(await service.deps.channels.store.db.selectFrom('channels').select(['secrets', 'settings']).execute());
    for (const credential of [FAKE_SLACK.botToken, FAKE_SLACK.signingSecret]) {
      assert.ok(!JSON.stringify(body).includes(credential), 'a credential in the answer');
      assert.ok(!rows.includes(credential), 'a credential stored in the clear');
    }
  });

  it('refuses a token that is not a bot token', async () => {
    const { res, body } = await api.json(`/v1/bots/${botId}/channels/slack`, { method: 'PUT', body: { bot_token: 'xoxp-1234567890-user-token' } });
    assert.equal(res.status, 400);
    assert.equal(body.error.code, 'validation_failed');
  });
});

describe('requests that are not Slack\'s', () => {
  it('a bad signature, another secret or an old timestamp answers 401 with the envelope and stores nothing', async () => {
    const before = await countRows(service, 'channel_inbound', slackId);
    const event = slackMessage('Ev0BAD', 'C0SUPPORT', '1700000001.000100', 'hello');
    const old = String(Math.floor(clock.now() / 1000) - 301);
    for (const res of [
      await deliver(event, { secret: 'another-signing-secret' }),
      await deliver(event, { timestamp: old }),
      await deliver(event, { headers: { 'x-slack-signature': 'v0=00' } }),
      await service.fetch(new Request(`http://127.0.0.1/v1/channels/slack/${slackId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) })),
    ]) {
      assert.equal(res.status, 401);
      const answer = await res.json();
      assert.equal(answer.success, false);
      assert.equal(answer.error.code, 'invalid_signature');
    }
    assert.equal(await countRows(service, 'channel_inbound', slackId), before);
  });
});

describe('the request URL check', () => {
  it('url_verification answers its challenge as text, only when signed', async () => {
    const check = { token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' };
    const res = await deliver(check);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await res.text(), check.challenge);
    assert.equal((await deliver(check, { secret: 'another-signing-secret' })).status, 401);
  });
});

describe('a person writes', () => {
  it('a message is answered in its thread, quick replies as Block Kit buttons', async () => {
    const res = await deliver(slackMessage('Ev0HELLO', 'C0SUPPORT', '1700000010.000100', 'hello'));
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).data, { received: 1 });
    await service.deps.channels.drain();
    const [sent, ...more] = inThread('C0SUPPORT', '1700000010.000100');
    assert.equal(more.length, 0);
    assert.equal(sent!.headers.authorization, `Bearer ${FAKE_SLACK.botToken}`);
    assert.match(String(sent!.headers['content-type']), /^application\/json; charset=utf-8/);
    assert.equal(sent!.body.text, 'Hello! How can I help?');
    assert.deepEqual(sent!.body.blocks, [
      { type: 'section', text: { type: 'mrkdwn', text: 'Hello! How can I help?' } },
      {
        type: 'actions',
        block_id: 'quick_replies',
        elements: ['Pricing', 'Install'].map((option, i) => ({ type: 'button', action_id: `qr_${i}`, text: { type: 'plain_text', text: option, emoji: true }, value: option })),
      },
    ]);
    // the turn is the bot's, in the thread's conversation, as on the widget
    assert.deepEqual((await historyOf('C0SUPPORT', '1700000010.000100')).map((m) => [m.role, m.content]), [['user', 'hello'], ['assistant', 'Hello! How can I help?']]);
  });

  it('a reply inside a thread is answered in that thread, the same conversation', async () => {
    await deliver(slackMessage('Ev0FOLLOW', 'C0SUPPORT', '1700000011.000200', 'how much does it cost', { threadTs: '1700000010.000100' }));
    await service.deps.channels.drain();
    assert.equal(inThread('C0SUPPORT', '1700000010.000100').at(-1)!.body.text, 'It is free and open source.');
    assert.equal(inThread('C0SUPPORT', '1700000011.000200').length, 0);
    assert.equal((await historyOf('C0SUPPORT', '1700000010.000100')).length, 4);
  });

  it('pressing a button (block_actions) is the next message, answered in the thread', async () => {
    const sentBefore = slack.sent().length;
    const res = await deliver(slackPress('1700000200.1.abc', 'C0SUPPORT', '1700000000.000001', '1700000010.000100', 'Pricing'));
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual((await res.json()).data, { received: 1 });
    await service.deps.channels.drain();
    assert.equal(slack.sent().length, sentBefore + 1);
    assert.equal(inThread('C0SUPPORT', '1700000010.000100').at(-1)!.body.text, 'It is free and open source.');
    assert.deepEqual((await historyOf('C0SUPPORT', '1700000010.000100')).slice(-2).map((m) => m.content), ['Pricing', 'It is free and open source.']);
  });

  it('a bot\'s message, an edit, a join and the app\'s own message are stored as nothing', async () => {
    for (const ignored of [
      slackMessage('Ev0BOT', 'C0SUPPORT', '1700000020.000100', 'I am a bot', { event: { bot_id: 'B0OTHER', subtype: 'bot_message' } }),
      slackMessage('Ev0EDIT', 'C0SUPPORT', '1700000020.000200', 'hello', { event: { subtype: 'message_changed', message: { text: 'hello' } } }),
      slackMessage('Ev0JOIN', 'C0SUPPORT', '1700000020.000300', '<@U0GRACE> has joined the channel', { event: { subtype: 'channel_join' } }),
      slackMessage('Ev0OWN', 'C0SUPPORT', '1700000020.000400', 'Hello! How can I help?', { user: FAKE_SLACK.botUserId }),
    ]) {
      const res = await deliver(ignored);
      assert.equal(res.status, 200);
      assert.deepEqual((await res.json()).data, { received: 0 }, ignored.event_id);
    }
  });
});

describe('retries', () => {
  it('an event Slack retries (same event_id, X-Slack-Retry-Num) is acknowledged, one turn and one reply', async () => {
    const event = slackMessage('Ev0RETRY', 'C0RETRY', '1700000030.000100', 'hello');
    assert.deepEqual((await (await deliver(event)).json()).data, { received: 1 });
    for (const [num, reason] of [['1', 'http_timeout'], ['2', 'http_error']]) {
      const res = await deliver(event, { headers: { 'x-slack-retry-num': num!, 'x-slack-retry-reason': reason! } });
      assert.equal(res.status, 200);
      assert.deepEqual((await res.json()).data, { received: 0 });
    }
    await service.deps.channels.drain();
    const retried = await deliver(event, { headers: { 'x-slack-retry-num': '3', 'x-slack-retry-reason': 'http_timeout' } }); // after it was answered
    assert.deepEqual((await retried.json()).data, { received: 0 });
    await service.deps.channels.drain();
    assert.equal(inThread('C0RETRY', '1700000030.000100').length, 1);
    assert.equal((await historyOf('C0RETRY', '1700000030.000100')).length, 2);
  });
});

describe('rate limits and refusals', () => {
  it('a 429 is retried after Retry-After, and the reply goes once', async () => {
    slack.failNext(FakeSlack.tooManyRequests(5));
    await deliver(slackMessage('Ev0LIMIT', 'C0LIMIT', '1700000040.000100', 'hello'));
    await service.deps.channels.drain();
    assert.equal(inThread('C0LIMIT', '1700000040.000100').length, 1); // the refused try
    clock.advance(4_999);
    await service.deps.channels.drain();
    assert.equal(inThread('C0LIMIT', '1700000040.000100').length, 1, 'not before Retry-After');
    clock.advance(1);
    await service.deps.channels.drain();
    assert.equal(inThread('C0LIMIT', '1700000040.000100').length, 2);
    const rows = await service.deps.channels.store.db.selectFrom('channel_outbox').select(['status', 'attempts', 'external_id']).where('chat', '=', 'C0LIMIT:1700000040.000100').execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.status, 'sent');
    assert.equal(rows[0]!.attempts, 2);
    assert.match(rows[0]!.external_id!, /^1700000000\.\d{6}$/);
  });

  it('an {"ok": false} answer is an error: not retried, shown in the channel\'s health', async () => {
    slack.failNext(FakeSlack.refusal('channel_not_found'));
    await deliver(slackMessage('Ev0GONE', 'C0GONE', '1700000050.000100', 'hello'));
    await service.deps.channels.drain();
    clock.advance(600_000);
    await service.deps.channels.drain();
    assert.equal(inThread('C0GONE', '1700000050.000100').length, 1);
    const row = await service.deps.channels.store.db.selectFrom('channel_outbox').select(['status', 'last_error']).where('chat', '=', 'C0GONE:1700000050.000100').executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'failed', last_error: 'Slack answered channel_not_found' });
    const health = (await api.json(`/v1/bots/${botId}/channels/slack`)).body.data.health;
    assert.match(health.last_error, /channel_not_found/);
  });
});

describe('replies', () => {
  it('go as mrkdwn, a long one in pieces of at most 3,000 characters in the thread, buttons on the last', async () => {
    const long = `**Plans** & [prices](https://ex.com/p?a=1&b=2) for 1 < 2.\n\n${'A sentence to fill the reply. '.repeat(250)}`;
    const { outbox, store } = service.deps.channels;
    await outbox.enqueue(store.db, { channelId: slackId, type: 'slack', chat: 'C0LONG:1700000060.000100', message: { id: 'msg_slacklong', content: long, suggestions: ['More'], citations: [] } });
    await service.deps.channels.drain();
    const pieces = inThread('C0LONG', '1700000060.000100');
    assert.ok(pieces.length >= 3, `${pieces.length} pieces`);
    assert.equal(pieces[0]!.body.text.split('\n\n')[0], '*Plans* &amp; <https://ex.com/p?a=1&amp;b=2|prices> for 1 &lt; 2.');
    for (const piece of pieces) assert.ok(piece.body.text.length <= 3000, `${piece.body.text.length} characters`);
    assert.deepEqual(pieces.map((piece) => piece.body.blocks?.[1]?.elements.map((e: { value: string }) => e.value)), [...pieces.slice(1).map(() => undefined), ['More']]);
    assert.equal(pieces.at(-1)!.body.blocks[0].text.text, pieces.at(-1)!.body.text);
  });
});

describe('handoff', () => {
  it('an operator\'s reply from the inbox reaches the Slack thread; the bot stays quiet meanwhile', async () => {
    await deliver(slackMessage('Ev0ORDER', 'C0ORDERS', '1700000070.000100', 'where is my order'));
    await service.deps.channels.drain();
    assert.equal(inThread('C0ORDERS', '1700000070.000100').length, 1); // the bot's answer, then the conversation waits for a person
    const conversationId = (await historyOf('C0ORDERS', '1700000070.000100'))[0]!.conversation_id;
    assert.equal((await operator.call('POST', `/dashboard/api/inbox/${conversationId}/take`)).status, 200);
    const reply = await operator.call('POST', `/dashboard/api/inbox/${conversationId}/messages`, { body: { content: 'Your order ships **today**.' } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    await service.deps.channels.drain();
    assert.equal(inThread('C0ORDERS', '1700000070.000100').at(-1)!.body.text, 'Your order ships *today*.');
    // the customer answers in the thread: held for the operator, no bot reply
    await deliver(slackMessage('Ev0THANKS', 'C0ORDERS', '1700000071.000100', 'thanks!', { threadTs: '1700000070.000100' }));
    await service.deps.channels.drain();
    assert.equal(inThread('C0ORDERS', '1700000070.000100').length, 2);
    const after = await api.json(`/v1/chat/history?conversation_id=${conversationId}`);
    assert.equal(after.body.data.items.at(-1).content, 'thanks!');
  });
});
