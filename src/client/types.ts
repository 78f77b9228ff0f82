/**
 * The v1 wire contract: every request body, response `data` and envelope the service speaks.
 *
 * This is the one shared types module for the client, the widget, the proxy and the reference
 * server (which imports it type-only). The OpenAPI document served at `GET /v1/openapi.json`
 * describes the same shapes; contract tests check the server against it.
 *
 * Conventions: ids are prefixed strings (`bot_…`, `agt_…`, `kb_…`, `conv_…`, `msg_…`, `job_…`),
 * times are ISO-8601 UTC strings, field names are snake_case as on the wire.
 *
 * The types live in one module per resource (`bot-types.ts`, `chat-types.ts`…); this module
 * gathers them, so `import type { … } from './types.js'` names any of them.
 */

export * from './envelope-types.js';
export * from './message-types.js';
export * from './bot-types.js';
export * from './chat-types.js';
export * from './agent-types.js';
export * from './knowledge-types.js';
export * from './analytics-types.js';
export * from './feedback-types.js';
export * from './csat-types.js';
export * from './handoff-types.js';
export * from './assignment-types.js';
export * from './attachment-types.js';
export * from './webhook-types.js';
export * from './channel-types.js';
export * from './canned-reply-types.js';
export * from './visitor-types.js';
