// Error mapping of complete answers (in-page Response objects, no server) and the error guards.
import { expect } from '@open-wc/testing';
import { interpretBody, parseRetryAfter } from '../../src/client/envelope.js';
import {
  AbortError,
  AiChatError,
  ApiError,
  NetworkError,
  RateLimitError,
  TimeoutError,
  isAbortError,
  isAiChatError,
  isApiError,
  isNetworkError,
  isRateLimitError,
  isTimeoutError,
} from '../../src/client/index.js';

const target = { method: 'POST', path: '/v1/bots' };

function answer(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
}

function interpretError(response: Response, text: string): ApiError {
  try {
    interpretBody(response, text, target);
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected interpretBody to throw');
}

describe('response interpretation', () => {
  it('returns data, meta, rate limit and status of a success envelope', () => {
    const text = JSON.stringify({ success: true, data: { id: 'bot_1' }, meta: { request_id: 'req_1', latency_ms: 3 } });
    const result = interpretBody(
      answer(201, text, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1700000000' }),
      text,
      target,
    );
    expect(result).to.deep.equal({
      data: { id: 'bot_1' },
      meta: { request_id: 'req_1', latency_ms: 3 },
      rateLimit: { limit: 60, remaining: 59, reset: 1700000000 },
      status: 201,
    });
  });

  it('maps an error envelope to ApiError with every field, and names method and path', () => {
    const text = JSON.stringify({
      success: false,
      error: {
        code: 'validation_failed',
        message: 'name is required',
        param: 'name',
        details: [{ path: '/name', message: 'required' }],
        request_id: 'req_9',
      },
    });
    const error = interpretError(answer(400, text), text);
    expect(error.name).to.equal('ApiError');
    expect(error.status).to.equal(400);
    expect(error.code).to.equal('validation_failed');
    expect(error.serverMessage).to.equal('name is required');
    expect(error.param).to.equal('name');
    expect(error.details).to.deep.equal([{ path: '/name', message: 'required' }]);
    expect(error.requestId).to.equal('req_9');
    expect(error.retryable).to.equal(false);
    expect(error.message).to.contain('POST /v1/bots').and.contain('name is required');
  });

  it('maps 429 to RateLimitError with Retry-After and the reset time', () => {
    const text = JSON.stringify({ success: false, error: { code: 'rate_limited', message: 'slow down' } });
    const reset = Math.floor(Date.now() / 1000) + 40;
    const error = interpretError(
      answer(429, text, {
        'retry-after': '40',
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      }),
      text,
    );
    expect(error).to.be.instanceOf(RateLimitError);
    const rateLimited = error as RateLimitError;
    expect(rateLimited.retryAfterMs).to.equal(40_000);
    expect(rateLimited.resetAt.getTime()).to.equal(reset * 1000);
    expect(rateLimited.rateLimit).to.deep.equal({ limit: 5, remaining: 0, reset });
    expect(rateLimited.retryable).to.equal(true);
  });

  it('turns an HTML error page into invalid_response with the HTTP status', () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    const error = interpretError(new Response(html, { status: 502, headers: { 'content-type': 'text/html' } }), html);
    expect(error.code).to.equal('invalid_response');
    expect(error.status).to.equal(502);
    expect(error.retryable).to.equal(true);
    expect(error.message).to.contain('text/html').and.contain('POST /v1/bots');
  });

  it('turns malformed JSON and an envelope without data into invalid_response', () => {
    const cut = '{"success":true,"data":{"id":';
    expect(interpretError(answer(200, cut), cut).code).to.equal('invalid_response');
    const noData = '{"success":true}';
    const error = interpretError(answer(200, noData), noData);
    expect(error.code).to.equal('invalid_response');
    expect(error.status).to.equal(200);
  });

  it('does not accept a success envelope on an error status', () => {
    const text = JSON.stringify({ success: true, data: {}, meta: { request_id: 'r', latency_ms: 0 } });
    expect(interpretError(answer(500, text), text).code).to.equal('invalid_response');
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter(503, new Headers({ 'retry-after': '3' }), now)).to.equal(3000);
    const date = new Date(now + 5000).toUTCString();
    expect(parseRetryAfter(503, new Headers({ 'retry-after': date }), now)).to.equal(5000);
  });
  it('falls back to X-RateLimit-Reset for 429 only', () => {
    const headers = new Headers({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 7) });
    expect(parseRetryAfter(429, headers, now)).to.equal(7000);
    expect(parseRetryAfter(503, headers, now)).to.equal(null);
  });
});

describe('error guards', () => {
  const target = { method: 'GET', path: '/v1/bots' };
  const samples = {
    api: new ApiError({ status: 404, code: 'resource_not_found', message: 'no such bot', target }),
    rateLimit: new RateLimitError({ status: 429, code: 'rate_limited', message: 'wait', retryAfterMs: 1000, target }),
    network: new NetworkError(target, new TypeError('Failed to fetch')),
    timeout: new TimeoutError(target, 50),
    abort: new AbortError(target),
  };

  it('builds a real hierarchy with names', () => {
    for (const error of Object.values(samples)) {
      expect(error).to.be.instanceOf(AiChatError).and.instanceOf(Error);
      expect(isAiChatError(error)).to.equal(true);
    }
    expect(samples.rateLimit).to.be.instanceOf(ApiError);
    expect(samples.rateLimit.name).to.equal('RateLimitError');
    expect(samples.network.cause).to.be.instanceOf(TypeError);
    expect(samples.timeout.message).to.contain('50 ms').and.contain('GET /v1/bots');
  });

  it('tells the classes apart', () => {
    expect(isApiError(samples.api)).to.equal(true);
    expect(isApiError(samples.rateLimit)).to.equal(true);
    expect(isRateLimitError(samples.api)).to.equal(false);
    expect(isRateLimitError(samples.rateLimit)).to.equal(true);
    expect(isNetworkError(samples.network)).to.equal(true);
    expect(isNetworkError(samples.timeout)).to.equal(false);
    expect(isTimeoutError(samples.timeout)).to.equal(true);
    expect(isAbortError(samples.abort)).to.equal(true);
    expect(isAbortError(samples.timeout)).to.equal(false);
  });

  it('recognises errors from another realm by name, but not DOMExceptions', () => {
    const foreign = { name: 'RateLimitError', message: 'x', status: 429 };
    expect(isApiError(foreign)).to.equal(true);
    expect(isRateLimitError(foreign)).to.equal(true);
    expect(isAiChatError(foreign)).to.equal(true);
    expect(isAbortError(new DOMException('aborted', 'AbortError'))).to.equal(false);
    expect(isTimeoutError(new DOMException('timed out', 'TimeoutError'))).to.equal(false);
    expect(isApiError(null)).to.equal(false);
    expect(isApiError('ApiError')).to.equal(false);
  });
});
