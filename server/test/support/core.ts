// Shared test helpers: a real service over a fresh test database (in-memory PGlite, or PostgreSQL with
// AI_CHAT_TEST_DATABASE_URL: see test-database.ts), called through its fetch handler.
import type { Service, ServiceOptions } from '../../src/index.ts';
import { createTestService } from './test-database.ts';

export interface TestClient {
  service: Service;
  apiKey: string;
  call(path: string, init?: CallInit): Promise<Response>;
  json<T = any>(path: string, init?: CallInit): Promise<{ res: Response; body: T }>;
}

export interface CallInit extends Omit<RequestInit, 'body'> {
  /** A value is sent as JSON; a string or bytes (a file) as they are. */
  body?: unknown;
  /** Another key (another tenant), or null for none. */
  auth?: string | null;
}

export async function startTestService(options: ServiceOptions = {}): Promise<TestClient> {
  const service = await createTestService(options);
  const apiKey = (await service.createAccount()).apiKey;
  return clientFor(service, apiKey);
}

export function clientFor(service: Service, apiKey: string): TestClient {
  const call = (path: string, init: CallInit = {}) => {
    const headers = new Headers(init.headers);
    const auth = init.auth === undefined ? apiKey : init.auth;
    if (auth) headers.set('authorization', `Bearer ${auth}`);
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (typeof init.body === 'string' || init.body instanceof Uint8Array) body = init.body as string | Uint8Array<ArrayBuffer>;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    return service.fetch(new Request(`http://127.0.0.1${path}`, { ...init, headers, body }));
  };
  return {
    service,
    apiKey,
    call,
    async json(path, init) {
      const res = await call(path, init);
      return { res, body: await res.json() };
    },
  };
}

/** A small but realistic training set with a list entity and a regex entity. */
export const shopTraining = {
  intents: [
    {
      name: 'greeting',
      examples: ['hello', 'hi there', 'good morning', 'hey', 'hello bot'],
      responses: ['Hello! How can I help?'],
      suggestions: ['Pricing', 'Install'],
    },
    {
      name: 'install',
      examples: ['how do I install it', 'install with {framework}', 'how to use it in {framework}', 'setup for {framework}', 'installation guide'],
      responses: ['Here is how to install it in {framework}.'],
    },
    {
      name: 'order.status',
      examples: ['where is my order', 'track order {order_id}', 'status of order {order_id}', 'has my order shipped'],
      responses: ['Checking order {order_id} for you.'],
    },
    {
      name: 'pricing',
      examples: ['how much does it cost', 'what is the price', 'pricing plans', 'is it free'],
      responses: ['It is free and open source.'],
    },
  ],
  entities: [
    { name: 'framework', type: 'list', values: [{ value: 'react', synonyms: ['reactjs'] }, { value: 'vue', synonyms: ['vuejs'] }, { value: 'svelte' }] },
    { name: 'order_id', type: 'regex', pattern: 'ORD-\\d{6}' },
  ],
  fallback: { threshold: 0.7, responses: ['Sorry, I did not get that.'] },
};
