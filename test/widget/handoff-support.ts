/**
 * The operator's side of human handoff for the widget's browser tests (handoff.test.ts,
 * csat.test.ts): an account with a signed-in operator and a bot that hands off, and that operator
 * kept online by an open inbox stream.
 */
import { DashboardApi } from '../../src/dashboard/api.js';
import { createBot } from './helpers.js';

/** A fresh account whose operator is signed in (cookie), an API key for the widget, and a bot with handoff on. */
export async function operatorAndBot(settings: Record<string, unknown> = {}) {
  const api = new DashboardApi();
  await api.signUp({ email: `handoff.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.test`, password: 'correct horse battery', account_name: 'Handoff' });
  const { secret } = await api.createKey({ label: 'widget' });
  const botId = await createBot(secret);
  await api.client.handoff.updateSettings(botId, { enabled: true, ...settings });
  return { api, secret, botId, operator: await api.operatorProfile() };
}

/** Waits until the service counts an operator of the account as online for this bot. */
export async function untilAvailable(api: DashboardApi, botId: string): Promise<void> {
  const deadline = performance.now() + 8000;
  while (!(await api.client.handoff.settings(botId)).data.available) {
    if (performance.now() > deadline) throw new Error('the operator never came online');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Keeps the operator online (the inbox stream) until the returned function is called. */
export async function online(api: DashboardApi, botId?: string): Promise<() => void> {
  const stop = new AbortController();
  void (async () => {
    for await (const _ of api.inboxEvents({ signal: stop.signal })) void _;
  })().catch(() => {});
  if (botId) await untilAvailable(api, botId);
  return () => stop.abort();
}
