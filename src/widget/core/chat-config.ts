/** What `ChatController` reads from its host, and which part of it decides the conversation's identity. */
import type { ReactiveControllerHost } from 'lit';
import type { Credentials } from '../connection/credentials.js';
import type { StorageMode } from '../conversation/storage.js';
import type { WidgetProperties } from './widget-properties.js';
import type { VisitorContext } from '../../client/types.js';

/** What the controller reads from its host on every (re)start and request. */
export interface ChatConfig extends Credentials {
  botId: string;
  /** Host-provided user id (`user-id` attribute or `identify()`); empty: an anonymous id. */
  userId: string;
  stream: boolean;
  storage: StorageMode;
  /** The element's id, or its ordinal among widgets with the same base URL and bot id. */
  instanceId: string;
  /** Per-attempt timeout in ms (a stream's: between two events); 0: the client's default. */
  timeout: number;
  /** The host offers attachments where the bot's settings cannot be read (the `attachments` attribute). */
  attachments?: boolean;
  /** Turns tell the service the page, referrer, locale and time zone (not `no-visitor-context`). */
  context?: boolean;
  /** What the host gave to `identify()` besides the id. */
  traits?: Pick<VisitorContext, 'name' | 'email' | 'attributes'>;
}

export type ChatHost = ReactiveControllerHost & EventTarget;

/** Whatever changes this starts another conversation (base URL, bot, instance, storage, user). */
export function identityKey(c: ChatConfig): string {
  return [c.baseUrl, c.botId, c.instanceId, c.storage, c.userId].join('\n');
}

/** The config of the element's properties; `instanceId`: its id, or its ordinal (`#2`). */
export function configOf(p: WidgetProperties, instanceId: string): ChatConfig {
  return {
    baseUrl: p.baseUrl,
    botId: p.botId,
    userId: p.userId,
    stream: p.stream,
    storage: p.storage,
    instanceId,
    timeout: Number.isFinite(p.timeout) && p.timeout > 0 ? p.timeout : 0,
    apiKey: p.apiKey,
    token: p.token,
    tokenUrl: p.tokenUrl,
    tokenCredentials: p.tokenCredentials === 'include' ? 'include' : 'same-origin',
    getToken: p.getToken,
    attachments: p.attachments,
    context: !p.noVisitorContext,
  };
}
