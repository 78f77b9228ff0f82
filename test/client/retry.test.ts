// Retry, timeout, abort and rate-limit policy, against the real service behind deterministic faults
// (test/support/faults.mjs). Requests are counted by the fault middleware, not by a fetch mock.
import { expect } from '@open-wc/testing';
import {
  AbortError,
  AiChatClient,
  ApiError,
  NetworkError,
  RateLimitError,
  TimeoutError,
} from '../../src/client/index.js';
import { clientFor, countOf, faultBaseUrl, newAccount, rejectionOf, uniqueKey } from './fixtures.js';

describe('retries', () => {
  it('retries a GET on 503 and returns the real answer', async () => {
    const key = uniqueKey('flaky-get');
    const { client } = await clientFor({ faults: `flaky/2/${key}` });
    const result = await client.bots.list();
    expect(result.status).to.equal(200);
    expect(result.data.items).to.be.an('array');
    expect(await countOf(key)).to.equal(3);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const key = uniqueKey('always-503');
    const { client } = await clientFor({ faults: `count/${key}/status/503` });
    const error = await rejectionOf(() => client.bots.get('bot_x'));
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(503);
    expect((error as ApiError).code).to.equal('service_unavailable');
    expect(await countOf(key)).to.equal(3); // 1 + the default 2 retries
  });

  it('honours a per-request maxRetries', async () => {
    const key = uniqueKey('no-retry');
    const { client } = await clientFor({ faults: `count/${key}/status/502` });
    await rejectionOf(() => client.bots.list({}, { maxRetries: 0 }));
    expect(await countOf(key)).to.equal(1);
  });

  it('does not retry a POST without an idempotency key', async () => {
    const key = uniqueKey('post-503');
    const { client } = await clientFor({ faults: `count/${key}/status/503` });
    const error = await rejectionOf(() => client.bots.create({ name: 'Nope' }));
    expect((error as ApiError).status).to.equal(503);
    expect(await countOf(key)).to.equal(1);
  });

  it('retries a POST with an idempotency key, and the server keeps one result', async () => {
    const key = uniqueKey('post-flaky');
    const { client, account } = await clientFor({ faults: `flaky/1/${key}` });
    const idempotencyKey = uniqueKey('idem');
    const created = await client.bots.create({ name: 'Once' }, { idempotencyKey });
    expect(created.data.name).to.equal('Once');
    expect(await countOf(key)).to.equal(2);
    const direct = new AiChatClient({ apiKey: account.apiKey });
    const again = await direct.bots.create({ name: 'Once' }, { idempotencyKey });
    expect(again.data.id).to.equal(created.data.id);
    const list = await direct.bots.list();
    expect(list.data.items.filter((bot) => bot.name === 'Once')).to.have.length(1);
  });

  it('does not retry statuses outside 408/429/502/503/504', async () => {
    const key = uniqueKey('500');
    const { client } = await clientFor({ faults: `count/${key}/status/500` });
    const error = await rejectionOf(() => client.bots.list());
    expect((error as ApiError).code).to.equal('internal_error');
    expect((error as ApiError).retryable).to.equal(false);
    expect(await countOf(key)).to.equal(1);
  });

  it('retries network errors of a GET but not of a POST', async () => {
    let calls = 0;
    const countingFetch: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    // nothing listens on port 9 of loopback: the connection is refused
    const client = new AiChatClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', fetch: countingFetch, maxRetries: 1 });
    const error = await rejectionOf(() => client.bots.list());
    expect(error).to.be.instanceOf(NetworkError);
    expect((error as NetworkError).message).to.contain('GET /v1/bots');
    expect(calls).to.equal(2);
    calls = 0;
    expect(await rejectionOf(() => client.bots.create({ name: 'x' }))).to.be.instanceOf(NetworkError);
    expect(calls).to.equal(1);
  });
});

describe('rate limits', () => {
  it('sleeps through a short Retry-After on 429, then succeeds', async () => {
    const key = uniqueKey('429-short');
    const { client } = await clientFor({ faults: `flaky/1/${key}/status/429/1` });
    const started = performance.now();
    const result = await client.bots.list();
    expect(result.status).to.equal(200);
    expect(performance.now() - started).to.be.greaterThan(900);
    expect(await countOf(key)).to.equal(2);
  });

  it('throws RateLimitError at once when Retry-After exceeds maxRetryDelayMs', async () => {
    const key = uniqueKey('429-long');
    const { client } = await clientFor({ faults: `count/${key}/status/429/60` });
    const started = Date.now();
    const error = await rejectionOf(() => client.bots.list());
    expect(error).to.be.instanceOf(RateLimitError);
    const rateLimited = error as RateLimitError;
    expect(rateLimited.status).to.equal(429);
    expect(rateLimited.code).to.equal('rate_limited');
    expect(rateLimited.retryAfterMs).to.equal(60_000);
    expect(rateLimited.resetAt.getTime()).to.be.within(started + 58_000, Date.now() + 61_000);
    expect(await countOf(key)).to.equal(1);
  });

  it('reports the real service limit: client.rateLimit and RateLimitError from X-RateLimit-*', async () => {
    const account = await newAccount({ points: 2, duration_seconds: 60 });
    const client = new AiChatClient({ apiKey: account.apiKey });
    expect(client.rateLimit).to.equal(null);
    const first = await client.bots.list();
    expect(first.rateLimit).to.include({ limit: 2, remaining: 1 });
    expect(client.rateLimit).to.deep.equal(first.rateLimit);
    await client.bots.list();
    const error = await rejectionOf(() => client.bots.list());
    expect(error).to.be.instanceOf(RateLimitError);
    const rateLimited = error as RateLimitError;
    expect(rateLimited.resetAt.getTime()).to.be.greaterThan(Date.now());
    expect(rateLimited.retryAfterMs).to.be.greaterThan(10_000);
    expect(client.rateLimit?.remaining).to.equal(0);
  });
});

describe('timeouts and aborts', () => {
  it('throws TimeoutError when no answer comes within timeoutMs', async () => {
    const key = uniqueKey('hang-post');
    const { client } = await clientFor({ faults: `count/${key}/hang`, timeoutMs: 200 });
    const error = await rejectionOf(() => client.bots.create({ name: 'slow' }));
    expect(error).to.be.instanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).to.equal(200);
    expect(await countOf(key)).to.equal(1); // a non-idempotent request is not retried after a timeout
  });

  it('retries a timed-out GET', async () => {
    const key = uniqueKey('hang-get');
    const { client } = await clientFor({ faults: `count/${key}/hang` });
    const error = await rejectionOf(() => client.bots.list({}, { timeoutMs: 150, maxRetries: 1 }));
    expect(error).to.be.instanceOf(TimeoutError);
    expect(await countOf(key)).to.equal(2);
  });

  it('lets a slow answer within timeoutMs through', async () => {
    const { client } = await clientFor({ faults: 'slow/150', timeoutMs: 3000 });
    expect((await client.bots.list()).status).to.equal(200);
  });

  it('throws AbortError on a user abort and does not retry', async () => {
    const key = uniqueKey('abort');
    const { client } = await clientFor({ faults: `count/${key}/hang` });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 100);
    const error = await rejectionOf(() => client.bots.list({}, { signal: controller.signal }));
    expect(error).to.be.instanceOf(AbortError);
    expect((error as AbortError).cause).to.be.instanceOf(Error);
    expect(await countOf(key)).to.equal(1);
  });

  it('throws AbortError for an already aborted signal without sending', async () => {
    const key = uniqueKey('pre-abort');
    const { client } = await clientFor({ faults: `count/${key}` });
    const error = await rejectionOf(() => client.bots.list({}, { signal: AbortSignal.abort() }));
    expect(error).to.be.instanceOf(AbortError);
    expect(await countOf(key)).to.equal(0);
  });

  it('stops waiting between retries when aborted', async () => {
    const key = uniqueKey('abort-sleep');
    const { client } = await clientFor({ faults: `count/${key}/status/503/5` });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    const error = await rejectionOf(() => client.bots.list({}, { signal: controller.signal }));
    expect(error).to.be.instanceOf(AbortError);
    expect(performance.now() - started).to.be.lessThan(3000);
    expect(await countOf(key)).to.equal(1);
  });
});

describe('answers that are not envelopes', () => {
  it('maps an HTML 502 page to invalid_response (retried like any 502)', async () => {
    const key = uniqueKey('html');
    const { client } = await clientFor({ faults: `count/${key}/html`, maxRetries: 1 });
    const error = await rejectionOf(() => client.bots.get('bot_1'));
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).code).to.equal('invalid_response');
    expect((error as ApiError).status).to.equal(502);
    expect((error as ApiError).message).to.contain('GET /__test__/fault/').and.contain('/v1/bots/bot_1');
    expect(await countOf(key)).to.equal(2);
  });

  it('maps malformed JSON and an envelope without data to invalid_response', async () => {
    for (const fault of ['malformed-json', 'no-data']) {
      const { client } = await clientFor({ faults: fault });
      const error = await rejectionOf(() => client.bots.list());
      expect(error, fault).to.be.instanceOf(ApiError);
      expect((error as ApiError).code, fault).to.equal('invalid_response');
      expect((error as ApiError).status, fault).to.equal(200);
    }
  });
});

describe('credentials', () => {
  it('refreshes the token once after a 401 and replays the request', async () => {
    const account = await newAccount();
    const reasons: string[] = [];
    const client = new AiChatClient({
      getToken: async ({ reason }) => {
        reasons.push(reason);
        return reason === 'initial' ? 'not-a-valid-key' : account.apiKey;
      },
    });
    const result = await client.bots.list();
    expect(result.status).to.equal(200);
    expect(reasons).to.deep.equal(['initial', 'unauthorized']);
    await client.bots.list();
    expect(reasons).to.have.length(2); // the good token is kept
  });

  it('throws the second 401 and never puts the token in the message', async () => {
    const key = uniqueKey('401');
    const secret = 'secret-token-that-is-wrong';
    let calls = 0;
    const client = new AiChatClient({
      baseUrl: faultBaseUrl(`count/${key}`),
      getToken: async () => {
        calls += 1;
        return secret;
      },
    });
    const error = await rejectionOf(() => client.bots.list());
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(401);
    expect((error as ApiError).code).to.equal('invalid_api_key');
    expect(String((error as Error).message)).not.to.contain(secret);
    expect(calls).to.equal(2);
    expect(await countOf(key)).to.equal(2);
  });

  it('sends the api key as a Bearer token; a wrong key is answered 401', async () => {
    const client = new AiChatClient({ apiKey: 'wrong' });
    const error = await rejectionOf(() => client.bots.list());
    expect((error as ApiError).status).to.equal(401);
    expect((error as ApiError).requestId).to.be.a('string');
  });
});
