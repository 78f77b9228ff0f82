/**
 * `ai-chat-widget/client`: the typed client of the v1 service.
 *
 * @example
 * import { AiChatClient, isRateLimitError } from 'ai-chat-widget/client';
 */
export * from './types.js';
export * from './errors.js';
export type { ApiResult, ClientOptions, GetTokenContext, RequestOptions } from './options.js';
export { AiChatClient } from './client.js';
export type { AttachmentScope, UploadOptions } from './resources/attachments.js';
export type { BotStreamEvent } from './resources/bots.js';
export type { ChatStreamEvent } from './resources/chat.js';
export type { TurnStreamEvent } from './turn-stream.js';
export { parseSse, type SseBody, type SseEvent } from './sse.js';
export { xhrFetch } from './xhr-fetch.js';
