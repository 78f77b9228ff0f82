/** Outgoing webhook options (`ServiceOptions.webhooks`): which targets may be reached, limits, the worker's timing. */
import { privateHostsFromEnv } from '../knowledge/import/options.ts';
import type { PrivateHosts } from '../knowledge/import/addresses.ts';

export interface WebhookOptions {
  /**
   * Private, loopback, link-local and other non-public targets, for tests and development only
   * (`AI_CHAT_WEBHOOKS_ALLOW_PRIVATE=1`, or CIDR ranges). Default false: only public addresses.
   */
  allowPrivateHosts?: PrivateHosts;
  /** Subscriptions one account may have. Default 20. */
  maxSubscriptions?: number;
  /** One request's time limit, answer included. Default 10 s. */
  requestTimeoutMs?: number;
  /** Days of nothing but failures after which a subscription is disabled. Default 5. */
  disableAfterDays?: number;
  /**
   * How often the worker looks for new events (the database queues them; nothing wakes the worker),
   * deliveries other instances stored, and retries that came due. It bounds an event's delay, well
   * inside the goal of delivery within 1 s (`bench/webhooks.ts`). Default 250 ms.
   */
  pollMs?: number;
  /** The clock of retries, signatures and claims (tests move it instead of waiting). Default `Date.now`. */
  now?: () => number;
}

export type WebhookConfig = Required<WebhookOptions>;

export function webhookOptionsFromEnv(env: NodeJS.ProcessEnv): WebhookOptions {
  return { allowPrivateHosts: privateHostsFromEnv(env.AI_CHAT_WEBHOOKS_ALLOW_PRIVATE) };
}

export function resolveWebhookConfig(options: WebhookOptions = {}): WebhookConfig {
  return {
    allowPrivateHosts: options.allowPrivateHosts ?? false,
    maxSubscriptions: options.maxSubscriptions ?? 20,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    disableAfterDays: options.disableAfterDays ?? 5,
    pollMs: options.pollMs ?? 250,
    now: options.now ?? Date.now,
  };
}
