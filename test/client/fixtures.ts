// Shared helpers of the client tests: fresh tenants on the real service, fault URLs, request counts.
import { AiChatClient, type ClientOptions } from '../../src/client/index.js';

export interface TestAccount {
  accountId: string;
  apiKey: string;
}

/** A fresh tenant on the real service mounted in the dev server. */
export async function newAccount(rateLimit?: { points: number; duration_seconds: number }): Promise<TestAccount> {
  const response = await fetch('/__test__/accounts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rateLimit ? { rate_limit: rateLimit } : {}),
  });
  if (response.status !== 201) throw new Error(`creating a test account failed with ${response.status}`);
  const body = (await response.json()) as { account_id: string; api_key: string };
  return { accountId: body.account_id, apiKey: body.api_key };
}

/** A key no other test uses (for `count/` and `flaky/` faults). */
export function uniqueKey(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Base URL that runs the fault chain (see test/support/faults.mjs) before the real `/v1`. */
export function faultBaseUrl(chain: string): string {
  return `${location.origin}/__test__/fault/${chain}/v1`;
}

/** How many requests the fault middleware saw under `key`. */
export async function countOf(key: string): Promise<number> {
  const response = await fetch(`/__test__/count/${encodeURIComponent(key)}`);
  return ((await response.json()) as { count: number }).count;
}

/** A client on a fresh tenant (or the given one), optionally behind a fault chain. */
export async function clientFor(options: ClientOptions & { account?: TestAccount; faults?: string } = {}) {
  const account = options.account ?? (await newAccount());
  const { faults, account: _unused, ...rest } = options;
  const client = new AiChatClient({
    apiKey: account.apiKey,
    ...(faults ? { baseUrl: faultBaseUrl(faults) } : {}),
    ...rest,
  });
  return { client, account };
}

/** Runs `action` and returns what it threw (fails the test if it did not throw). */
export async function rejectionOf(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

/** A small bot with two intents, trained on creation. */
export const SUPPORT_BOT = {
  name: 'Support',
  language: 'en',
  training: {
    intents: [
      {
        name: 'greeting',
        examples: ['hello', 'hi there', 'good morning', 'hey'],
        responses: ['Hello! How can I help?'],
        suggestions: ['Opening hours'],
      },
      {
        name: 'hours',
        examples: ['when are you open', 'opening hours', 'what time do you open', 'are you open on sunday'],
        responses: ['We are open 9 to 5, Monday to Friday.'],
      },
    ],
  },
  quick_replies: ['Opening hours'],
};
