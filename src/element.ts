/**
 * `ai-chat-widget/element`: the `<ai-chat-widget>` class, its events and types, WITHOUT registering
 * a tag. For scoped registries or a custom tag name:
 *
 * @example
 * import { AiChatWidget } from 'ai-chat-widget/element';
 * customElements.define('acme-chat', class extends AiChatWidget {});
 */
export { AiChatWidget } from './widget/core/ai-chat-widget.js';
export { ChatController, type ChatConfig } from './widget/core/chat-controller.js';
export type { ChatStatus } from './widget/core/chat-status.js';
export * from './widget/core/events.js';
export { renderMarkdown, safeHref, type MarkdownOptions } from './widget/markdown/markdown.js';
export type { Highlighter, HighlightToken } from './widget/markdown/code-block.js';
export type { StorageMode } from './widget/conversation/storage.js';
export { loadStrings } from './widget/locales/load-strings.js';
export { resolveStrings, type WidgetStrings } from './widget/locales/strings.js';
