/**
 * `ai-chat-widget/element`: the `<ai-chat-widget>` class, its events and types, WITHOUT registering
 * a tag. For scoped registries or a custom tag name:
 *
 * @example
 * import { AiChatWidget } from 'ai-chat-widget/element';
 * customElements.define('acme-chat', class extends AiChatWidget {});
 */
export { AiChatWidget } from './widget/ai-chat-widget.js';
export { ChatController, type ChatConfig, type ChatStatus } from './widget/chat-controller.js';
export * from './widget/events.js';
export { renderMarkdown, safeHref, type MarkdownOptions } from './widget/markdown.js';
export type { Highlighter, HighlightToken } from './widget/code-block.js';
export type { StorageMode } from './widget/storage.js';
export { loadStrings, resolveStrings, type WidgetStrings } from './widget/strings.js';
