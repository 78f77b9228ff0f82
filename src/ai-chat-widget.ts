/**
 * `ai-chat-widget`: registers `<ai-chat-widget>` and re-exports the element's API.
 *
 * Registration is guarded, so loading this module twice (two script tags, two bundles) does not
 * throw, and importing it where there is no DOM (server-side rendering) does nothing.
 */
import { AiChatWidget } from './widget/core/ai-chat-widget.js';

export * from './element.js';

if (typeof customElements !== 'undefined' && !customElements.get('ai-chat-widget')) {
  customElements.define('ai-chat-widget', AiChatWidget);
}
