// The real service from a widget test: fresh tenants and bots, stored history. Importing this
// module does not register <ai-chat-widget> (a test of the element before it is defined uses it).
import type { CreateBotRequest, Message } from '../../src/client/types.js';
import { newAccount } from '../client/fixtures.js';

export const baseUrl = `${location.origin}/v1`;

/** A fresh tenant on the real service; its API key. */
export async function newApiKey(rateLimit?: { points: number; duration_seconds: number }): Promise<string> {
  return (await newAccount(rateLimit)).apiKey;
}

/** A bot whose intents answer their own examples; returns its id. */
export async function createBot(apiKey: string, bot: Partial<CreateBotRequest> = {}): Promise<string> {
  const body: CreateBotRequest = {
    name: 'Widget test bot',
    training: {
      intents: [
        {
          name: 'greeting',
          examples: ['hello', 'hi there', 'good morning', 'hey'],
          responses: ['Hello! How can I **help** you today?'],
          suggestions: ['Opening hours', 'Pricing'],
        },
        {
          name: 'hours',
          examples: ['opening hours', 'when are you open', 'what time do you open'],
          responses: ['We are open 9 to 5, Monday to Friday.'],
        },
        {
          name: 'pricing',
          examples: ['pricing', 'how much does it cost', 'what is the price'],
          responses: ['Plans start at 10 euros a month.'],
        },
      ],
    },
    ...bot,
  };
  const response = await fetch(`${baseUrl}/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`creating a bot failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The stored messages of a conversation (or of a user with a bot), read with the API key. */
export async function historyOf(apiKey: string, query: Record<string, string>): Promise<Message[]> {
  const response = await fetch(`${baseUrl}/chat/history?${new URLSearchParams({ ...query, limit: '200' })}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  if (!response.ok) throw new Error(`reading history failed with ${response.status}`);
  return ((await response.json()) as { data: { items: Message[] } }).data.items;
}
